"""A person on the hub as their browser is: logged in by the login form, then through the hub's API with a token made from
that login: their server started, the Assignments tab's calls, a notebook's code cells run in its kernel over the
kernel's WebSocket as JupyterLab runs them. The demo's class and the tests' people are these."""
import asyncio
import json
import time
import uuid

from classroom_folder import KERNEL

from hub.settings import course_id

LAB = "00-start-here"  # the lab a class starts with
COURSE = course_id()


class HubUser:
    """A user of the hub: logged in by the login form, with an API token made from that login."""

    def __init__(self, url, user, password):
        import requests
        self.url, self.user, self.http = url, user, requests.Session()
        self.http.get(f"{url}/hub/login").raise_for_status()
        answer = self.http.post(f"{url}/hub/login", allow_redirects=False,
                                data={"username": user, "password": password, "_xsrf": self.http.cookies["_xsrf"]})
        if answer.status_code != 302:
            raise RuntimeError(f"{user} could not log in: {answer.status_code}")
        made = self.http.post(f"{url}/hub/api/users/{user}/tokens", json={"note": "hub-demo"},
                              headers={"X-XSRFToken": self.http.cookies["_xsrf"]})
        made.raise_for_status()
        self.token = made.json()["token"]
        self.headers = {"Authorization": f"token {self.token}"}

    def api(self, method, path, **kwargs):
        return self.http.request(method, f"{self.url}{path}", headers=self.headers, timeout=900, **kwargs)

    def start_server(self, seconds=600):
        if self.api("GET", f"/hub/api/users/{self.user}").json()["servers"].get("", {}).get("ready"):
            return
        started = self.api("POST", f"/hub/api/users/{self.user}/server")
        if started.status_code not in (201, 202):
            raise RuntimeError(f"{self.user}'s server did not start: {started.text[:300]}")
        deadline = time.time() + seconds
        while True:
            server = self.api("GET", f"/hub/api/users/{self.user}").json()["servers"].get("")
            if server and server.get("ready"):
                return
            if not server:
                raise RuntimeError(f"{self.user}'s server stopped while it started (the hub's log says why)")
            if time.time() > deadline:
                raise RuntimeError(f"{self.user}'s server did not start within {seconds} s")
            time.sleep(0.5)

    def assignments(self, action=None, course=COURSE, lab=LAB):
        """The Assignments tab's call: the list, or fetch, submit or fetch_feedback of the lab."""
        if action is None:
            answer = self.api("GET", f"/user/{self.user}/assignments", params={"course_id": course})
        else:
            answer = self.api("POST", f"/user/{self.user}/assignments/{action}", data={"course_id": course, "assignment_id": lab})
        answer.raise_for_status()
        listed = answer.json()
        if not listed.get("success", True):
            raise RuntimeError(f"{self.user}: {action or 'list'} failed: {str(listed)[:300]}")
        return {a["assignment_id"]: a for a in listed["value"]}

    def run_notebook(self, path):
        """Every code cell of a notebook in the user's server, in a kernel of its own over the kernel's WebSocket, as
        JupyterLab runs them; the number of cells that ended in an error (an unanswered exercise's own)."""
        notebook = self.api("GET", f"/user/{self.user}/api/contents/{path}").json()["content"]
        session = self.api("POST", f"/user/{self.user}/api/sessions",
                           json={"path": path, "type": "notebook", "kernel": {"name": KERNEL}}).json()
        try:
            return asyncio.run(self._execute(session["kernel"]["id"], [c["source"] for c in notebook["cells"] if c["cell_type"] == "code"]))
        finally:
            self.api("DELETE", f"/user/{self.user}/api/sessions/{session['id']}")

    async def _execute(self, kernel, cells):
        from tornado.httpclient import HTTPRequest
        from tornado.websocket import websocket_connect
        client = uuid.uuid4().hex
        socket_url = f"{self.url.replace('http', 'ws', 1)}/user/{self.user}/api/kernels/{kernel}/channels?session_id={client}"
        # a class's kernels start together on shared cores: minutes, not tornado's default 20 s
        connection = await websocket_connect(HTTPRequest(socket_url, headers=self.headers, connect_timeout=600, request_timeout=600))
        errors = 0
        for code in cells:
            msg_id = uuid.uuid4().hex
            connection.write_message(json.dumps({
                "header": {"msg_id": msg_id, "msg_type": "execute_request", "username": self.user, "session": client,
                           "version": "5.3", "date": ""},
                "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
                "content": {"code": code, "silent": False, "store_history": True, "user_expressions": {}, "allow_stdin": False,
                            "stop_on_error": False}}))
            while True:
                message = await connection.read_message()
                if message is None:
                    raise RuntimeError(f"{self.user}'s kernel closed its connection")
                reply = json.loads(message)
                if reply.get("msg_type") == "execute_reply" and reply["parent_header"].get("msg_id") == msg_id:
                    errors += reply["content"]["status"] != "ok"
                    break
        connection.close()
        return errors
