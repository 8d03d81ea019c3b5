"""The course hub's login from an LMS (HUB_LOGIN=lti): JupyterHub's LTI 1.3 authenticator (jupyterhub-ltiauthenticator),
on a server whose learners are Unix users.

- The hub name is the LMS's own id of the person (the launch's `sub`, stable where names and e-mails change), made a
  Unix user name: lti-<id>, or ltix-<its hash> where the id is not one already.
- A person the LMS launches for the first time becomes a Unix user of the server (their server runs as them).
- A launch counts only from the LMS's deployment of the tool the teacher registered (LTI_DEPLOYMENT_ID), and into a
  hub course only from the LMS course that course belongs to: the first launch by an instructor ties a hub course to
  its LMS course (the launch's context; kept in the hub's state, lti-courses.json), and launches from any other LMS
  course into it are refused, as are learners' launches into a course no instructor has launched yet. (Else any
  instructor of any course on the same LMS could set course=<ours> on a link of theirs and grade our class.)
- The hub's groups come from the launch's roles: the LMS's instructors (and teaching assistants) grade, the rest learn;
  in the course the launch's custom parameter `course` names (the LMS's link sets it), else the hub's first course.
  Each launch sets the person's role in that course as the LMS says it now (one demoted in the LMS is demoted here);
  a person launched from two courses' links is in both. The Unix groups of the same names follow (the class lists
  root's collect checks each hand-in against: hub/handins.py)."""
import grp
import hashlib
import json
import os
import pwd
import re
import subprocess

from jupyterhub.auth import LocalAuthenticator
from ltiauthenticator.lti13.auth import LTI13Authenticator
from traitlets import List, Unicode

from hub.settings import groups

ROLES_CLAIM = "https://purl.imsglobal.org/spec/lti/claim/roles"
CUSTOM_CLAIM = "https://purl.imsglobal.org/spec/lti/claim/custom"
DEPLOYMENT_CLAIM = "https://purl.imsglobal.org/spec/lti/claim/deployment_id"
CONTEXT_CLAIM = "https://purl.imsglobal.org/spec/lti/claim/context"
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

    courses = List(Unicode(), config=True, help="the hub's courses (hub.settings.Settings.course_ids), the first the default")
    deployment_id = Unicode(config=True, help="the LMS's deployment of the tool (LTI_DEPLOYMENT_ID): launches from no other count")
    contexts_file = Unicode(config=True, help="where each hub course's LMS course (a launch's context id) is kept")

    async def authenticate(self, handler, data=None):
        token = data or {}
        if token.get(DEPLOYMENT_CLAIM) != self.deployment_id:
            self.log.warning("LTI launch refused: deployment %r is not this hub's (LTI_DEPLOYMENT_ID)", token.get(DEPLOYMENT_CLAIM))
            return None
        model = await super().authenticate(handler, data)
        model["name"] = unix_name(model["name"])
        named = token.get(CUSTOM_CLAIM, {}).get("course")
        course = named if named in self.courses else self.courses[0]
        grades = any(role in GRADING_ROLES for role in token.get(ROLES_CLAIM, []))
        if not self.from_its_lms_course(course, (token.get(CONTEXT_CLAIM) or {}).get("id"), grades, model["name"]):
            return None
        roles = groups(course)
        group, other = (roles["instructors"], roles["learners"]) if grades else (roles["learners"], roles["instructors"])
        known = handler.find_user(model["name"])  # other courses' groups stay (manage_groups sets them all)
        model["groups"] = sorted({group, *(g.name for g in known.groups if g.name not in roles.values())} if known else {group})
        self.join(model["name"], group, other)
        return model

    def from_its_lms_course(self, course, context, grades, name):
        """Whether a launch into a hub course comes from the LMS course it belongs to; an instructor's first launch ties
        them (said in the hub's log)."""
        tied = json.loads(open(self.contexts_file).read()) if os.path.exists(self.contexts_file) else {}
        if not context:
            self.log.warning("LTI launch of %s into %s refused: it names no LMS course (no context claim)", name, course)
            return False
        if course not in tied:
            if not grades:
                self.log.warning("LTI launch of %s into %s refused: no instructor has launched that course from the LMS yet",
                                 name, course)
                return False
            tied[course] = context
            partial = f"{self.contexts_file}.partial"
            with open(partial, "w") as written:
                json.dump(tied, written, indent=1)
            os.replace(partial, self.contexts_file)
            self.log.info("LTI: hub course %s tied to LMS course %r by %s's launch (%s)", course, context, name, self.contexts_file)
        if tied[course] != context:
            self.log.warning("LTI launch of %s into %s refused: it comes from LMS course %r, not %r, the course's own",
                             name, course, context, tied[course])
            return False
        return True

    def join(self, name, group, other):
        """The person as a Unix user of this server (made on their first launch, as JupyterHub's LocalAuthenticator
        makes them), in the Unix group of the launch and not in the course's other one."""
        try:
            pwd.getpwnam(name)
        except KeyError:
            subprocess.run([*self.add_user_cmd, name], check=True, capture_output=True)
        if name not in grp.getgrnam(group).gr_mem:
            subprocess.run(["usermod", "-a", "-G", group, name], check=True, capture_output=True)
        if name in grp.getgrnam(other).gr_mem:
            subprocess.run(["gpasswd", "--delete", name, other], check=True, capture_output=True)
