"""The course hub's login from an LMS (HUB_LOGIN=lti): JupyterHub's LTI 1.3 authenticator (jupyterhub-ltiauthenticator),
on a server whose learners are Unix users.

- The hub name is the LMS's own id of the person (the launch's `sub`, stable where names and e-mails change), made a
  Unix user name: lti-<id>, or ltix-<its hash> where the id is not one already.
- A person the LMS launches for the first time becomes a Unix user of the server (their server runs as them).
- The hub's groups come from the launch's roles: the LMS's instructors (and teaching assistants) grade, the rest learn;
  in the course the launch's custom parameter `course` names (the LMS's link sets it), else the hub's first course.
  A person launched from two courses' links is in both. The Unix groups of the same names follow (the class lists
  root's collect checks each hand-in against: tools/hub_collect.py)."""
import grp
import hashlib
import pwd
import re
import subprocess

from jupyterhub.auth import LocalAuthenticator
from ltiauthenticator.lti13.auth import LTI13Authenticator
from traitlets import List, Unicode

import course_hub

ROLES_CLAIM = "https://purl.imsglobal.org/spec/lti/claim/roles"
CUSTOM_CLAIM = "https://purl.imsglobal.org/spec/lti/claim/custom"
# LTI 1.3's context roles (its role vocabularies) that grade: the course's instructors and teaching assistants
GRADING_ROLES = ("http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor",
                 "http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant")


def unix_name(lms_id):
    """A Unix user name for an LMS's id of a person: lti-<id> where the id is one already (short, lower case, letters,
    digits and dashes), else ltix-<a hash of it> (two ids never share a name)."""
    text = str(lms_id)
    return f"lti-{text}" if re.fullmatch(r"[a-z0-9][a-z0-9-]{0,27}", text) else f"ltix-{hashlib.sha256(text.encode()).hexdigest()[:20]}"


class CourseLTI(LocalAuthenticator, LTI13Authenticator):
    """LTI 1.3 launches, each person a Unix user of this server, in the course's groups by their LMS role."""

    courses = List(Unicode(), config=True, help="the hub's courses (course_hub.Settings.course_ids), the first the default")

    async def authenticate(self, handler, data=None):
        model = await super().authenticate(handler, data)
        model["name"] = unix_name(model["name"])
        token = data or {}
        named = token.get(CUSTOM_CLAIM, {}).get("course")
        course = named if named in self.courses else self.courses[0]
        grades = any(role in GRADING_ROLES for role in token.get(ROLES_CLAIM, []))
        group = course_hub.groups(course)["instructors" if grades else "learners"]
        known = handler.find_user(model["name"])  # the groups of earlier launches stay (manage_groups sets them all)
        model["groups"] = sorted({group, *(g.name for g in known.groups)} if known else {group})
        self.join(model["name"], group)
        return model

    def join(self, name, group):
        """The person as a Unix user of this server (made on their first launch, as JupyterHub's LocalAuthenticator
        makes them), in the Unix group of the launch."""
        try:
            pwd.getpwnam(name)
        except KeyError:
            subprocess.run([*self.add_user_cmd, name], check=True, capture_output=True)
        if name not in grp.getgrnam(group).gr_mem:
            subprocess.run(["usermod", "-a", "-G", group, name], check=True, capture_output=True)
