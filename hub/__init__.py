"""The course hub: JupyterHub on one server for a class (`python -m hub COMMAND`: hub/__main__.py lists them), each job a
module of its own:

    settings        what each setting is, saved at install, read by every other part
    answers         what learners may not read, closed at every step; what they must reach
    install         each course's groups, grader, classroom and exchange folders; ngshare's account
    root_folders    folders root makes or enters where learners write: never through a link
    service         the hub started, answering, stopped; its systemd unit; free ports for a demo's or a test's hub
    limits          what holds a learner's server: its cgroup (memory, tasks, a CPU share), the disk's reserve
    learner_server  a learner's server, as the learner (the spawner's command)
    image           the course as learners may see it, for a hub's image
    teacher         release; collect (each hand-in checked: handins), grade, feedback, grades.csv
    handins         what root takes from a course's exchange folder before nbgrader collects it
    backup          the term in one dated archive, and back (make hub-backup, make hub-restore)
    people          a course's people as the LMS's roster lists them (make hub-people)
    client          a person on the hub as their browser is (the demo's class, the tests' people)
    demo            a class simulated and timed (make hub-demo)
JupyterHub reads jupyterhub_config.py (with lti.py, the LMS login, and ngshare_roster.py); nbgrader reads exchange.py;
Formgrader's configuration is formgrader/, a Kubernetes hub's k8s/. The course's folder and its tools/ are on every
path of the course's Python environment (setup/setup.sh puts them there, as an installed package's would be)."""
