# The course's entry points. Each runs the one set-up first (seconds when nothing is missing).
SHELL := /bin/bash
# The folder this Makefile is in (`make -f path/to/Makefile clean` cleans the course there, not the current folder).
COURSE := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
SETUP := bash "$(COURSE)/setup/setup.sh"
ENV := source "$(COURSE)/build/env.sh"
# JupyterLab refuses to run as root unless told; only then is the flag added.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: setup lab teach formgrade hub hub-demo hub-release hub-grade hub-backup hub-restore hub-people hub-service hub-image-tree test bench report plan-model assignments collect autograde feedback grades class-demo handin clean class-results lab-map

setup:
	@$(SETUP)

# COURSE_PORT and COURSE_TOKEN, checked before anything is made (each reaches a command line or a URL).
define check_server_settings
	@port="$${COURSE_PORT:-8888}" && { [[ "$$port" =~ ^[0-9]{4,5}$$ ]] && (( port >= 1024 && port <= 65535 )) \
	       || { echo "COURSE_PORT=$$port: give a port number from 1024 to 65535" >&2; exit 2; }; } \
	  && { [[ "$${COURSE_TOKEN:-x}" =~ ^[A-Za-z0-9_-]+$$ ]] || { echo "COURSE_TOKEN: letters, digits, - and _ only" >&2; exit 2; }; }
endef

# JupyterLab on 127.0.0.1, in folder $(1), its URL (to page $(2)) printed once it answers (tools/answering.py) because
# JupyterLab masks a token it was given; $(3) is the mode's Jupyter configuration (setup/jupyterlab/learner or
# teacher). Set COURSE_PORT or COURSE_TOKEN to choose. The token reaches JupyterLab in its environment (JUPYTER_TOKEN),
# never on its command line, which every user of the machine can read.
define jupyter_lab
	@$(ENV) && port="$${COURSE_PORT:-8888}" && token="$${COURSE_TOKEN:-$$(python3 -c 'import secrets; print(secrets.token_hex(16))')}" \
	  && cd "$(1)" && export JUPYTER_TOKEN="$$token" && { python "$(COURSE)/tools/answering.py" "$$port" "$(2)" & } \
	  && JUPYTER_CONFIG_PATH="$(COURSE)/setup/jupyterlab/$(3)$${JUPYTER_CONFIG_PATH:+:$$JUPYTER_CONFIG_PATH}" \
	     exec jupyter lab --ip=127.0.0.1 --no-browser $(ROOT_FLAG) "--ServerApp.port=$$port" --ServerApp.port_retries=0 \
	     --ServerApp.root_dir="$(1)"
endef
# The learner's own copies of the labs (COURSE_MY_LABS names another folder)
MY_LABS := $${COURSE_MY_LABS:-$(COURSE)/my-labs}

# The learner's JupyterLab on their own copies of the labs (made once from labs/, never written over), no teacher tools.
lab: setup
	$(check_server_settings)
	@$(ENV) && python "$(COURSE)/tools/learner.py" "$(MY_LABS)"
	$(call jupyter_lab,$(MY_LABS),lab/tree/00-start-here.ipynb,learner)

# The teacher's JupyterLab on the course folder: the sources in labs/ (with their solutions), nbgrader's menus and
# Formgrader on the classroom folder (build/classroom, or COURSE_CLASSROOM), the course's nbgrader configuration in effect.
teach: setup
	$(check_server_settings)
	@$(ENV) && python "$(COURSE)/tools/classroom.py" prepare
	$(call jupyter_lab,$(COURSE),lab/tree/labs/00-start-here.ipynb,teacher)

# Formgrader alone, on the classroom folder, for the written answers autograde leaves to you.
formgrade: setup
	$(check_server_settings)
	@test -f "$${COURSE_CLASSROOM:-$(COURSE)/build/classroom}/nbgrader_config.py" \
	  || { echo "formgrade: no classroom in $${COURSE_CLASSROOM:-$(COURSE)/build/classroom} yet: make assignments first" >&2; exit 1; }
	$(call jupyter_lab,$${COURSE_CLASSROOM:-$(COURSE)/build/classroom},formgrader,teacher)

# The course hub on this server, as root (hub/settings.py says what each setting is; they are kept for the next start):
#   make hub HUB_PORT=8000 INSTRUCTORS="ada" LEARNERS="ben cleo" HUB_MEMORY=2g HUB_TASKS=512 HUB_IDLE_MINUTES=60 HUB_ANSWERS=off
#   (HUB_EXCHANGE=ngshare: the exchange as a hub service)
# Its folder is /srv/java-io-course-hub (HUB_HOME); JupyterHub stays in the foreground (README: "Teaching on a hub").
hub:
	@$(SETUP) --for-hub && $(ENV) && python -m hub install && exec python -m hub start

# The teacher on the hub, as root: a lab into nbgrader's exchange (learners fetch it in the Assignments tab), and then
# collect, autograde (each hand-in in its sandbox), feedback released to the same tab, grades.csv: make hub-grade LAB=03-operation-size
# (COURSE=<course> on a hub that serves several, HUB_COURSES)
hub-release: setup
	@$(ENV) && python -m hub release "$${LAB-}" $${COURSE:+"$$COURSE"}

hub-grade: setup
	@$(ENV) && python -m hub grade "$${LAB-}" $${COURSE:+"$$COURSE"}

# The term in one dated archive, as root, while the hub runs (hub/backup.py says what it holds): make hub-backup
# (HOMES=yes: each learner's java-io-course too). On a fresh server, after make hub has made its courses and the class's
# people are added, and with the hub stopped: make hub-restore ARCHIVE=/srv/java-io-course-hub/backups/hub-….tar.gz
hub-backup: setup
	@$(ENV) && python -m hub backup $${HOMES:+$$([ "$$HOMES" = yes ] && echo --homes || echo "HOMES=$$HOMES")}

hub-restore: setup
	@$(ENV) && python -m hub restore "$${ARCHIVE-}"

# A course's people as the LMS's CSV export lists them, as root (hub/people.py): make hub-people ROSTER=class.csv
# (COURSE=<course> on a hub of several). Made, moved between learners and instructors, or taken out (their login ended).
hub-people: setup
	@$(ENV) && python -m hub people "$${ROSTER-}" $${COURSE:+"$$COURSE"}

# The hub as a systemd service, as root, after make hub has saved its settings: its unit checked (systemd-analyze verify),
# written to /etc/systemd/system (UNIT_DIR= elsewhere), enabled and started where systemd runs the machine.
hub-service: setup
	@$(ENV) && python -m hub service $${UNIT_DIR:+"$$UNIT_DIR"}

# The course as learners may see it (no tests, no history, each lab its student version), for a hub's image on
# Kubernetes (hub/k8s/values.yaml): make hub-image-tree IMAGE_TREE=/tmp/java-io-course-image
hub-image-tree: setup
	@$(ENV) && python -m hub image-tree $${IMAGE_TREE:+"$$IMAGE_TREE"}

# A class on the hub, simulated and timed (as root, where make hub runs): LEARNERS=30 log in at once, fetch lab 00,
# run it in smoke and submit; the teacher grades; each learner fetches the feedback. Its figures: the README's sizing.
hub-demo:
	@$(SETUP) --for-hub && $(ENV) && python -m hub.demo --learners "$${LEARNERS:-30}"

# the set-up adds the tools only tests use (pytest, playwright-core), which a learner's make lab goes without; exec:
# make's SIGTERM, when it is stopped, reaches pytest itself (tests/conftest.py: it stops the run as Ctrl-C does). One
# test process more than cores: the services' tests wait on servers and jobs much of their time, and the extra process
# fills the core they leave idle (2-core EPYC: 586 and 599 s, against 634 and 638 s with one process a core)
test:
	@$(SETUP) --for-tests && $(ENV) && exec python -m pytest -n $$(( $$(nproc) + 1 )) --dist loadfile --no-loadscope-reorder --durations=15 "$(COURSE)/tests"

# The course's stopwatch beside JMH on the same 1-byte read loop (about a minute); lab 00 sets it beside fio.
bench: setup
	@$(ENV) && mvn -q -B -C -Dstyle.color=never -f "$(COURSE)/bench/pom.xml" package \
	  && java -cp "$(COURSE)/bench/target/benchmarks.jar:$(COURSE)/kit/target/course-kit.jar" course.bench.CrossCheck

# LABS="03-operation-size 05-text-lines" reports only those labs (split at spaces, never expanded as file patterns).
report: setup
	@$(ENV) && set -f && python "$(COURSE)/tools/report.py" $${LABS-}

# What the planner reads (labs/presets.json "_plan" and each lab's quick "seconds"), measured on this machine: run it on the
# reference machine, idle, after a lab's work changed (each lab runs whole, at a quarter of its sizes, with its judged
# sizes at a quarter and, where it has "fewest", at its fewest: three times each, tools/plan_model.py; LABS as for report).
plan-model: setup
	@$(ENV) && set -f && python "$(COURSE)/tools/plan_model.py" $${LABS-}

# Where each lab's parts live (notebook, presets, snippets, claims, published statements, not-judged ones, saved runs),
# for whoever changes a lab: make lab-map LAB=05-text-lines (every lab without LAB)
lab-map: setup
	@$(ENV) && set -f && python "$(COURSE)/tools/lab_map.py" $${LAB-}

# The student versions of every lab (solutions and hidden tests removed): build/classroom/release/<lab>/.
assignments: setup
	@$(ENV) && python "$(COURSE)/tools/classroom.py" release

# An LMS's "download all submissions" of one lab (its zip, or the folder it unpacks to; Moodle's or Canvas's layout)
# sorted into build/classroom/submitted/<student>/<lab>/: make collect LAB=03-operation-size FROM=~/Downloads/lab03.zip
collect: setup
	@$(ENV) && python "$(COURSE)/tools/classroom.py" collect "$${LAB-}" "$${FROM-}"

# Grades what learners handed in under build/classroom/submitted/<student>/<lab>/: make autograde LAB=02-buffering
# Each hand-in runs in a sandbox of its own, with limits (tools/sandbox.py says what it sees and why; `python tools/sandbox.py check`).
autograde: setup
	@$(ENV) && status=0 && { python "$(COURSE)/tools/classroom.py" autograde "$${LAB-}" || status=$$?; } \
	  && python "$(COURSE)/tools/classroom.py" scores "$${LAB-}" && exit $$status

# Feedback for every graded hand-in of a lab (no hidden test shown): build/classroom/feedback/<student>/<lab>/<lab>.html
feedback: setup
	@$(ENV) && python "$(COURSE)/tools/classroom.py" feedback "$${LAB-}"

# The class's marks as one CSV table: build/classroom/grades.csv
grades: setup
	@$(ENV) && python "$(COURSE)/tools/classroom.py" grades

# A simulated class (LEARNERS=30, LMS=moodle or canvas) through collect, autograde, feedback and grades, every mark checked
class-demo: setup
	@$(ENV) && python "$(COURSE)/tools/class_demo.py" --learners "$${LEARNERS:-30}" --lms "$${LMS:-moodle}"

# A learner's notebooks and results (data/results/*.json, checked) in one zip, build/handin/handin-ID.zip: make handin ID=jane-doe
# ID (like LAB, HANDIN and FROM) reaches the command through the environment, never spliced into its text.
handin: setup
	@$(ENV) && python "$(COURSE)/tools/classroom.py" handin "$${ID-}"

# The teacher's view of the class: the zips in build/handin/ side by side, in build/class-results.html; HANDIN=folder
# for the zips in another folder, LAB=03-operation-size for those make collect took in for a lab.
class-results: setup
	@$(ENV) && python "$(COURSE)/tools/classroom.py" class-results $${LAB:+--lab "$$LAB"} "$${HANDIN-}"

# Removes what the set-up and the runs made, in the course folder whichever folder make runs from. It spares
# what people made: grades, submissions and feedback (build/classroom), hand-ins (build/handin), results (data/results).
clean:
	@if [ -d "$(COURSE)/build" ]; then find "$(COURSE)/build" -mindepth 1 -maxdepth 1 ! -name classroom ! -name handin -exec rm -rf {} +; fi
	rm -rf "$(COURSE)/scratch" "$(COURSE)/labs/flamegraphs" "$(COURSE)/my-labs/flamegraphs" "$(COURSE)/kit/target" "$(COURSE)/bench/target"
