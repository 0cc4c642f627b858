# The project's checks, in one place; .ci/run installs, then runs `make check`.
.PHONY: install lint format typecheck test check bench

install:
	python3 -m pip install -q -e '.[test]'

lint:
	ruff check .
	ruff format --check .

format:
	ruff format .

typecheck:
	mypy

test:
	python3 -m pytest

check: lint typecheck test

bench:
	bash ../shared/bench/setup_repos.sh
	python3 ../shared/bench/run.py ../shared/bench/dev.jsonl --repos ~/.cache/codehop-bench/repos --budget 2000 --sweep 0,1,2
