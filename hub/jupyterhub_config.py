"""The course hub's JupyterHub configuration: `python -m hub start` runs JupyterHub on it, with the settings its install
saved (hub/settings.py says what each is).

- Who: the server's Unix users, by PAM, in the course's learners' or instructors' group; the hub's groups follow
  the Unix ones at each login (nbgrader reads them: nbgrader-<course> learns, formgrade-<course> grades). Or, with
  HUB_LOGIN=lti, whoever the LMS launches (LTI 1.3, hub/lti.py), grouped by their LMS role.
- A learner's server: `python -m hub learner` (hub/learner_server.py), as the learner, held to the teacher's memory and process limits by a
  cgroup of its own (where the hub may make one) and RLIMIT_NPROC; stopped by the idle culler after the teacher's time;
  running on while the hub restarts (HUB_KEEP_SERVERS), its cgroup named in its saved state.
- The teacher's: for each course, Formgrader as the hub service <course>, run as its grader account on its classroom
  folder, open to its instructors' group alone; its Autograde button refuses (hand-ins are graded in the sandbox).
- The exchange: nbgrader's folder on this server's disk, or (HUB_EXCHANGE=ngshare) the hub service ngshare, run as its
  own account, whose course lists the hub keeps at each login (hub/ngshare_roster.py).
- The proxy: configurable-http-proxy from the course's npm lock (setup/hub)."""
import grp
import pwd
import time
from pathlib import Path

import sandbox
from jupyterhub.spawner import LocalProcessSpawner
from tornado import web
from labs import HOME

from hub import limits
from hub.settings import (ENVIRONMENT, LANDING, NGSHARE, NGSHARE_ACCOUNT, PYTHON, TEACHER, Settings, exchange_environment, grader,
                          groups, teacher_token)

c = get_config()  # noqa: F821 (JupyterHub provides it)
settings = Settings.load()
courses = settings.course_ids()
course_groups = [group for course in courses for group in groups(course).values()]
ports = settings.ports()
state = settings.folder("state")
environment = {"HUB_HOME": settings.home, **exchange_environment(settings)}

c.JupyterHub.bind_url = settings.public_url()
if settings.tls_cert:  # the hub's proxy speaks TLS itself (no TLS proxy in front)
    c.JupyterHub.ssl_cert = settings.tls_cert
    c.JupyterHub.ssl_key = settings.tls_key
c.JupyterHub.hub_bind_url = f"http://127.0.0.1:{ports['hub']}"
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{ports['proxy api']}"
c.ConfigurableHTTPProxy.command = [str(HOME / "build/tools/hub/node_modules/.bin/configurable-http-proxy")]
c.ConfigurableHTTPProxy.pid_file = str(state / "proxy.pid")
c.JupyterHub.db_url = f"sqlite:///{state / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(state / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(state / "jupyterhub.pid")

c.Authenticator.manage_groups = True
if settings.login == "lti":
    from hub import lti

    c.JupyterHub.authenticator_class = lti.CourseLTI
    c.CourseLTI.issuer = settings.lti_issuer
    c.CourseLTI.client_id = {settings.lti_client_id}
    c.CourseLTI.authorize_url = settings.lti_authorize_url
    c.CourseLTI.jwks_endpoint = settings.lti_jwks_url
    c.CourseLTI.username_key = "sub"  # the LMS's own id of the person
    c.CourseLTI.courses = list(courses)
    c.CourseLTI.deployment_id = settings.lti_deployment_id
    c.CourseLTI.contexts_file = str(state / "lti-courses.json")
    c.CourseLTI.allow_all = True  # whoever the LMS launches into the course (its signature says so)
    c.CourseLTI.create_system_users = True
    c.CourseLTI.add_user_cmd = ["useradd", "--create-home", "--shell", "/bin/bash"]
else:
    c.JupyterHub.authenticator_class = "pam"
    c.PAMAuthenticator.allowed_groups = set(course_groups)


def unix_groups(user):
    """The course's Unix groups a user is in."""
    primary = pwd.getpwnam(user).pw_gid
    return [name for name in course_groups if user in grp.getgrnam(name).gr_mem or grp.getgrnam(name).gr_gid == primary]


async def logged_in(authenticator, handler, authentication):
    """The hub's groups of who logs in by PAM are their Unix ones (the LMS's launch names them for LTI); with ngshare,
    its course lists follow them."""
    if settings.login == "pam":
        authentication["groups"] = unix_groups(authentication["name"])
    if settings.exchange == "ngshare":
        from hub import ngshare_roster
        await ngshare_roster.enrol(settings, authentication["name"], authentication["groups"])
    return authentication


c.Authenticator.post_auth_hook = logged_in

c.Spawner.default_url = LANDING
c.Spawner.environment = {**environment, "COURSE_ANSWERS": settings.answers, "COURSE_PRESET": settings.preset}
# nbgrader's Assignments tab asks the hub which course groups the learner is in
c.Spawner.server_token_scopes = ["users:activity!user", "read:users:groups!user"]
# a class logging in at once shares the cores: on two, 30 JupyterLabs starting together took minutes (make hub-demo),
# past JupyterHub's 30 s for a server to answer; a first login also makes the learner's copies of the labs
c.Spawner.start_timeout = 600
c.Spawner.http_timeout = 600


class CourseSpawner(LocalProcessSpawner):
    """JupyterHub's local spawner, whose saved state (the hub's database) also names the server's cgroup: a hub restarted
    while the server ran (HUB_KEEP_SERVERS=yes) finds it again, and stops it and removes its cgroup as its own."""
    course_cgroup = None

    def get_state(self):
        state = super().get_state()
        if self.course_cgroup:
            state["cgroup"] = {controller: str(folder) for controller, folder in self.course_cgroup.folders.items()}
        return state

    def load_state(self, state):
        super().load_state(state)
        if state.get("cgroup"):
            self.course_cgroup = sandbox.Cgroup({controller: Path(folder) for controller, folder in state["cgroup"].items()})


c.JupyterHub.spawner_class = CourseSpawner
# a restart (a new version, a changed setting, the machine's service manager) leaves learners' servers running: the new
# hub finds each by its saved state and routes to it again
c.JupyterHub.cleanup_servers = settings.keep_servers == "no"


def held(spawner):
    """The learner's server starts inside a cgroup of its own (memory, processes, a CPU share), joined by its first
    instruction; or not at all where the disk is nearly full, or no cgroup can be made and the teacher did not accept that."""
    short = limits.disk_short(settings, pwd.getpwnam(spawner.user.name).pw_dir)
    if short:
        raise web.HTTPError(507, short)  # Insufficient Storage: JupyterHub shows an HTTPError's message to the learner
    argv = ["prlimit", f"--nproc={settings.tasks}", "--core=0", "--", PYTHON, "-m", "hub", "learner"]
    cgroup = limits.walled(settings, f"hub-{spawner.user.name}-{time.time_ns()}")
    if cgroup is None and settings.limits == "cgroup":
        raise web.HTTPError(503, "no cgroup could be made to hold your server's memory: tell your teacher")
    spawner.course_cgroup = cgroup
    if cgroup:
        cgroup.admit(pwd.getpwnam(spawner.user.name).pw_uid)
        argv = cgroup.wrap(argv)
    spawner.cmd = argv


def released(spawner):
    """What the server left running is stopped with it, and its cgroup removed."""
    cgroup = getattr(spawner, "course_cgroup", None)
    if cgroup:
        cgroup.remove()


c.Spawner.pre_spawn_hook = held
c.Spawner.post_stop_hook = released


def tied(argv):
    """A service's command, tied to the hub: JupyterHub stops its services when it stops, but not when it dies or is
    stopped while it starts; then SIGTERM reaches them (setpriv --pdeathsig), instead of their holding their ports."""
    return ["setpriv", "--pdeathsig", "TERM", *argv]


c.JupyterHub.services = [
    {"name": "idle-culler",
     "command": tied([PYTHON, "-m", "jupyterhub_idle_culler", f"--url=http://127.0.0.1:{ports['hub']}/hub/api",
                      f"--timeout={round(settings.idle_minutes * 60)}",
                      # looked at every 5 minutes at most (its default, half the time, lets a server idle half as long again)
                      f"--cull-every={max(1, min(300, round(settings.idle_minutes * 10)))}"])},
] + ([
    {"name": NGSHARE,
     "url": f"http://127.0.0.1:{ports[NGSHARE]}",
     "command": tied([str(HOME / "build/tools/ngshare/bin/python"), "-m", "ngshare", f"--admins={TEACHER}",
                      f"--database=sqlite:///{settings.folder(NGSHARE) / 'ngshare.db'}",
                      f"--storage={settings.folder(NGSHARE) / 'files'}/"]),
     "user": NGSHARE_ACCOUNT,
     "cwd": str(settings.folder(NGSHARE))},
] if settings.exchange == "ngshare" else []) + [
    {"name": TEACHER, "api_token": teacher_token(settings)},  # no process: a token for the teacher's commands (ngshare, people)
] + [
    {"name": course,
     "url": f"http://127.0.0.1:{ports[f'formgrader {course}']}",
     "command": tied([str(ENVIRONMENT / "bin/jupyterhub-singleuser"), f"--ServerApp.root_dir={settings.classroom(course)}"]),
     "user": grader(course),
     "cwd": str(settings.classroom(course)),
     "oauth_no_confirm": True,
     "environment": {**environment, "COURSE_ID": course, "COURSE_CLASSROOM": str(settings.classroom(course)),
                     "JUPYTER_CONFIG_PATH": f"{HOME / 'hub/formgrader'}:{HOME / 'setup/jupyterlab/teacher'}",
                     "JUPYTERHUB_DEFAULT_URL": "/formgrader"}}
    for course in courses
]
c.JupyterHub.load_roles = [
    {"name": "idle-culler", "services": ["idle-culler"],
     "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"]},
] + [role for course in courses for role in (
    {"name": f"formgrade-{course}", "groups": [groups(course)["instructors"]],
     "scopes": [f"access:services!service={course}"]},
    {"name": f"grader-{course}", "services": [course], "scopes": ["list:users", "read:users:groups"]},
    # the instructors admins of their own class: its learners' servers started and stopped from the hub's admin page
    {"name": f"class-admin-{course}", "groups": [groups(course)["instructors"]],
     "scopes": ["admin-ui", *(f"{scope}!group={groups(course)['learners']}" for scope in ("list:users", "read:users", "admin:servers"))]},
)] + [
    # make hub-people ends the login of whom a roster takes out of a class (hub/people.py): the class's people alone
    {"name": "course-people", "services": [TEACHER],
     "scopes": [f"admin:users!group={group}" for group in course_groups] + [f"admin:servers!group={group}" for group in course_groups]},
]
