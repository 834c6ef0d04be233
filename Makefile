# The two commands: `make run` (the site with demo data at http://127.0.0.1:8080)
# and `make test` (every test layer). Both install what is missing first.

SHELL := /bin/bash
.DEFAULT_GOAL := help

.PHONY: help setup services-up services-down run test test-rust test-frontend test-e2e race crash lifecycle build-frontend bench fuzz clean

help:
	@echo "make run    - set up, start local services, serve the site with demo data"
	@echo "make test   - set up, start local services, run every test"
	@echo "make bench  - load 1M paid sales and measure the public read endpoints (not part of make test)"
	@echo "make fuzz   - schemathesis against every /v1 operation, anonymous, as a member and (admin operations) as an administrator (a short run is in make test)"
	@echo "make race   - 200 guests back 50 units at once through two servers: sold 50, refused 150, 50 intents (in make test)"
	@echo "make crash  - kill -9 between the provider's confirmation and our write; paid after restart; replays change nothing (in make test)"
	@echo "make lifecycle - three campaigns end (failed and refunded, waiting for a transfer, all-in with a refund), kill -9 mid-close; prints results and payouts (in make test)"

setup:
	@bash app-server/dev/setup.sh

services-up: setup
	@bash app-server/dev/services.sh up

services-down:
	@bash app-server/dev/services.sh down

build-frontend: setup
	@cd frontend && npm run --silent build

run:
	@bash app-server/dev/run.sh

test:
	@bash app-server/dev/test.sh

# Single layers, for development (services must be up: `make services-up`).
test-rust:
	@source .data/services.env && cargo nextest run --workspace

test-frontend:
	@cd frontend && npm test

test-e2e:
	@bash app-server/dev/test.sh e2e

race:
	@bash app-server/dev/race.sh

crash:
	@bash app-server/dev/crash.sh

lifecycle:
	@bash app-server/dev/lifecycle.sh

bench:
	@bash app-server/bench/run.sh

fuzz:
	@bash app-server/dev/fuzz.sh

clean: services-down
	rm -rf .data frontend/dist frontend/dist-server
