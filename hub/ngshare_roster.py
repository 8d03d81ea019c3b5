"""The course hub's classes in ngshare (HUB_EXCHANGE=ngshare). ngshare lets into a course only the students and
instructors on its own lists, so at each login the hub puts the person on the lists of the courses their groups name
(instructors' group: instructor; learners' group: student) and takes them off the others, as the hub service that is
ngshare's admin (hub.settings.TEACHER). A course is made in ngshare by its first release or the first login that needs
it, whichever comes first."""
import json
from urllib.parse import urlencode

from tornado.httpclient import AsyncHTTPClient, HTTPClientError

from hub.settings import groups, teacher_token

NO_NAME = {"first_name": "", "last_name": "", "email": ""}  # ngshare asks for them; nbgrader's gradebook takes names from elsewhere


async def call(settings, token, method, path, form=None):
    """One call to ngshare's API as its admin (token: hub.settings.teacher_token); the HTTP status (ngshare answers 404
    for what is not there, 409 for what is)."""
    body = urlencode(form) if form is not None else None
    try:
        answer = await AsyncHTTPClient().fetch(f"{settings.ngshare_url()}/{path}", method=method, body=body,
                                               headers={"Authorization": f"token {token}"})
        return answer.code
    except HTTPClientError as error:
        if error.code in (404, 409):
            return error.code
        raise RuntimeError(f"ngshare refused {method} {path}: {error.code} {error.response.body[:200] if error.response else ''}") from error


async def open_course(settings, course, token=None):
    """The course in ngshare (made once: 409 says it is there), its Formgrader service one of its instructors."""
    await call(settings, token or teacher_token(settings), "POST", f"course/{course}", {"instructors": json.dumps([course])})


async def enrol(settings, name, theirs):
    """Puts `name` on each course's lists as their hub groups (theirs) say, and off those they are no longer on."""
    token = teacher_token(settings)
    for course in settings.course_ids():
        await open_course(settings, course, token)
        named = groups(course)
        if named["instructors"] in theirs:
            await call(settings, token, "POST", f"instructor/{course}/{name}", NO_NAME)
            continue
        await call(settings, token, "DELETE", f"instructor/{course}/{name}")
        if named["learners"] in theirs:
            await call(settings, token, "POST", f"student/{course}/{name}", NO_NAME)
        else:
            await call(settings, token, "DELETE", f"student/{course}/{name}")
