# The course's entry points. Each runs the one set-up first (seconds when nothing is missing).
SHELL := /bin/bash
# The folder this Makefile is in (`make -f path/to/Makefile clean` cleans the course there, not the current folder).
COURSE := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
SETUP := bash setup/setup.sh
ENV := source build/env.sh
# JupyterLab refuses to run as root unless told; only then is the flag added.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: setup lab formgrade test bench report assignments collect autograde feedback grades class-demo handin clean class-results

setup:
	@$(SETUP)

# JupyterLab on 127.0.0.1, in folder $(1), its URL (to page $(2)) printed here because JupyterLab masks a token it was
# given. Set COURSE_PORT or COURSE_TOKEN to choose. The token reaches JupyterLab in its environment (JUPYTER_TOKEN),
# never on its command line, which every user of the machine can read.
define jupyter_lab
	@$(ENV) && port=$${COURSE_PORT:-8888} && token=$${COURSE_TOKEN:-$$(python3 -c 'import secrets; print(secrets.token_hex(16))')} \
	  && cd "$(1)" && echo "Open it at: http://127.0.0.1:$$port/$(2)?token=$$token" \
	  && JUPYTER_TOKEN="$$token" jupyter lab --ip=127.0.0.1 --no-browser $(ROOT_FLAG) --ServerApp.port=$$port --ServerApp.port_retries=0 \
	     --ServerApp.root_dir="$(1)"
endef

lab: setup
	$(call jupyter_lab,$(COURSE)/labs,lab/tree/00-start-here.ipynb)

# The teacher's JupyterLab on the classroom folder, its nbgrader configuration in effect: Formgrader, for the written
# answers autograde leaves to you (COURSE_CLASSROOM names another classroom folder).
formgrade: setup
	@test -f "$${COURSE_CLASSROOM:-$(COURSE)/build/classroom}/nbgrader_config.py" \
	  || { echo "formgrade: no classroom in $${COURSE_CLASSROOM:-$(COURSE)/build/classroom} yet: make assignments first" >&2; exit 1; }
	$(call jupyter_lab,$${COURSE_CLASSROOM:-$(COURSE)/build/classroom},formgrader)

# the set-up adds the tools only tests use (pytest, playwright-core), which a learner's make lab goes without
test:
	@$(SETUP) --for-tests && $(ENV) && python -m pytest --durations=15 tests

# The course's stopwatch beside JMH on the same 1-byte read loop (about a minute); lab 00 sets it beside fio.
bench: setup
	@$(ENV) && mvn -q -B -C -Dstyle.color=never -f bench/pom.xml package \
	  && java -cp bench/target/benchmarks.jar:kit/target/course-kit.jar course.bench.CrossCheck

# LABS="03-operation-size 05-text-lines" reports only those labs.
report: setup
	@$(ENV) && python tools/report.py $${LABS-}

# The student versions of every lab (solutions and hidden tests removed): build/classroom/release/<lab>/.
assignments: setup
	@$(ENV) && python tools/classroom.py release

# An LMS's "download all submissions" of one lab (its zip, or the folder it unpacks to; Moodle's or Canvas's layout)
# sorted into build/classroom/submitted/<student>/<lab>/: make collect LAB=03-operation-size FROM=~/Downloads/lab03.zip
collect: setup
	@$(ENV) && python tools/classroom.py collect "$${LAB-}" "$${FROM-}"

# Grades what learners handed in under build/classroom/submitted/<student>/<lab>/: make autograde LAB=02-buffering
# Each hand-in runs in a sandbox of its own, with limits (tools/sandbox.py says what it sees and why; `python tools/sandbox.py check`).
autograde: setup
	@$(ENV) && status=0 && { python tools/classroom.py autograde $${LAB-} || status=$$?; } \
	  && python tools/classroom.py scores $${LAB-} && exit $$status

# Feedback for every graded hand-in of a lab (no hidden test shown): build/classroom/feedback/<student>/<lab>/<lab>.html
feedback: setup
	@$(ENV) && python tools/classroom.py feedback $${LAB-}

# The class's marks as one CSV table: build/classroom/grades.csv
grades: setup
	@$(ENV) && python tools/classroom.py grades

# A simulated class (LEARNERS=30, LMS=moodle or canvas) through collect, autograde, feedback and grades, every mark checked
class-demo: setup
	@$(ENV) && python tools/class_demo.py --learners "$${LEARNERS:-30}" --lms "$${LMS:-moodle}"

# A learner's notebooks and results (data/results/*.json, checked) in one zip, build/handin/handin-ID.zip: make handin ID=jane-doe
# ID (like LAB, HANDIN and FROM) reaches the command through the environment, never spliced into its text.
handin: setup
	@$(ENV) && python tools/classroom.py handin "$${ID-}"

# The teacher's view of the class: the zips in build/handin/ (or HANDIN=folder) side by side, in build/class-results.html.
class-results: setup
	@$(ENV) && python tools/classroom.py class-results "$${HANDIN-}"

# Removes what the set-up and the runs made, in the course folder whichever folder make runs from. It spares
# what people made: grades, submissions and feedback (build/classroom), hand-ins (build/handin), results (data/results).
clean:
	@if [ -d "$(COURSE)/build" ]; then find "$(COURSE)/build" -mindepth 1 -maxdepth 1 ! -name classroom ! -name handin -exec rm -rf {} +; fi
	rm -rf "$(COURSE)/scratch" "$(COURSE)/labs/flamegraphs" "$(COURSE)/kit/target" "$(COURSE)/bench/target"
