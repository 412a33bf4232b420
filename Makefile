# Two commands matter: `make dev` (install, build, migrate, seed, serve on one port) and `make test`.
SHELL := /bin/bash
.DEFAULT_GOAL := dev

# Node >= 22.12: the machine's node when new enough, else Node 24 fetched from the npm registry.
NODE_BIN := $(shell infra/node/ensure-node.sh)
export PATH := $(NODE_BIN):$(PATH)
export KAFKAJS_NO_PARTITIONER_WARNING := 1
export npm_config_update_notifier := false
export npm_config_fund := false
export npm_config_audit := false

.PHONY: dev start install build build-portal build-admin typecheck lint format format-check test test-unit chaos infra infra-down replay bench clean

install: node_modules/.installed
node_modules/.installed: package.json package-lock.json $(wildcard */package.json packages/*/package.json services/*/package.json web/*/package.json)
	npm ci --loglevel=error
	@touch $@

build: typecheck build-portal build-admin

build-portal: install
	npm run build -w web/portal

build-admin: install
	npm run build -w web/admin

typecheck: install
	npx tsc -p tsconfig.json

lint: install
	npx eslint --max-warnings=0 .

# Prettier (print width 120, .prettierrc.json) owns the layout; ESLint keeps to correctness.
format: install
	npx prettier --write --log-level=warn .

format-check: install
	npx prettier --check --log-level=warn .

# Installs, builds, migrates and seeds on start, then serves portal, back-office and API on $PORT (3000); without
# SMTP_URL a local mail catcher runs beside it (its address is logged: http://127.0.0.1:1080 unless that port is taken).
dev: build
	SEED_DEMO=true WEBHOOK_ALLOW_PRIVATE_URLS=true npm run dev

start: install
	npm run start

# The whole suite: unit and property tests, then the integration tests on PGlite, on the real
# PostgreSQL and on the real Kafka broker (started here through `make infra` when not given).
# Passwords are hashed at scrypt's N=2^14 rather than OWASP's 2^17 here: the suite signs in a few hundred times, at
# about 0.4 s of a core each at 2^17 (production refuses it; authHardening.it.test.ts checks the cost itself).
# The checks (types, lint, layout) and both builds run side by side (-j): each is mostly one busy process, and the machine has two cores.
test: install
	$(MAKE) --no-print-directory --output-sync=target -j4 build lint format-check
	infra/scripts/chromium.sh
	WEBHOOK_ALLOW_PRIVATE_URLS=true PASSWORD_SCRYPT_N=16384 npx vitest run

test-unit: install
	npx vitest run --project unit

infra:
	@infra/scripts/infra.sh up

infra-down:
	@infra/scripts/infra.sh down

replay: install
	npm run replay

bench: install
	@eval "$$(infra/scripts/infra.sh up)" && export DATABASE_URL KAFKA_BROKERS && npm run bench

# The fault suite's long run: CHAOS_ROUNDS (20) rounds of killing the API, the worker, Kafka and PostgreSQL in turn
# under load, on a cluster and broker of its own; its figures go to docs/benchmarks.md (section fault-suite).
# `make test` runs one round of it.
chaos: install
	@eval "$$(infra/scripts/postgres.sh start)" && export DATABASE_URL && BENCH_SECTIONS=fault-suite CHAOS_ROUNDS=$${CHAOS_ROUNDS:-20} npm run bench

clean:
	rm -rf node_modules .data .test-data
