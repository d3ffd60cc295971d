# Thin entry points; the work happens in scripts/.
.PHONY: run build test bench clean

run:      ## bootstrap what runs, build it (the server binary, the web app), and serve http://localhost:8080 (SQLite in ./data)
	@scripts/bootstrap run
	@scripts/build run
	@scripts/run

build:    ## bootstrap, then build the server (build/server/storefront) and the web app (web/dist)
	@scripts/bootstrap
	@scripts/build

test:     ## bootstrap, build, and run every test
	@scripts/bootstrap
	@scripts/test

bench:    ## load benchmarks, Lighthouse and the 10-minute soak (results in bench/README.md)
	@scripts/bootstrap
	@scripts/build
	@bench/run
	@bench/signin.py
	@bench/commerce.py
	@bench/flash_sale.py
	@node bench/lighthouse.mjs
	@bench/soak.py

clean:
	rm -rf build web/dist
