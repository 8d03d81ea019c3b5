"""The teacher's Jupyter server (make teach, make formgrade; the course hub's Formgrader, whose configuration path holds
this folder too): Formgrader's pages safe to open on learners' work (tools/safe_formgrader.py says how)."""
c = get_config()  # noqa: F821 (Jupyter provides it)
c.ServerApp.jpserver_extensions = {"safe_formgrader": True}
c.HTMLExporter.preprocessors = ["safe_formgrader.Cleaned"]  # every cell and output a hand-in brings, cleaned
