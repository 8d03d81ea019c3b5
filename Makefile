# The course's entry points. Each runs the one set-up first (seconds when nothing is missing).
SHELL := /bin/bash
SETUP := bash setup/setup.sh
ENV := source build/env.sh
# JupyterLab refuses to run as root unless told; only then is the flag added.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: setup lab test report clean

setup:
	@$(SETUP)

lab: setup
	@$(ENV) && jupyter lab --ip=127.0.0.1 --no-browser $(ROOT_FLAG) \
	  --ServerApp.root_dir="$$COURSE_HOME/labs" --IdentityProvider.token="$${COURSE_TOKEN:-$$(python3 -c 'import secrets; print(secrets.token_hex(16))')}"

test: setup
	@$(ENV) && python -m pytest tests

report: setup
	@$(ENV) && python tools/report.py

clean:
	rm -rf build scratch labs/flamegraphs kit/target
