-- wrk script for bench/commerce.py: places orders (POST /functions/v1/create-checkout-session for
-- the bench product), rotating over the Bearer tokens in BENCH_TOKENS_FILE (one a line).
-- After wrk's summary it prints the BENCH line of wrk_report.lua and one more line,
-- "BENCH_SENT sent=N": how many times wrk asked for a request, which is one more than it wrote
-- (wrk 4 calls request() once before the run to check the script). Requests written minus the
-- responses wrk counted were still in flight when wrk stopped; the server completes those too,
-- so the orders in the database are the 200 responses plus those.
dofile("bench/wrk_report.lua")

local tokens = {}
for line in io.lines(os.getenv("BENCH_TOKENS_FILE")) do
  if line ~= "" then tokens[#tokens + 1] = line end
end
local slug = os.getenv("BENCH_PRODUCT_SLUG") or "bench-order-item"
local body = string.format('{"productSlug":"%s"}', slug)
local counter = 0
sent = 0 -- global: read from the main state through thread:get in done()

request = function()
  counter = counter + 1
  sent = sent + 1
  local token = tokens[(counter % #tokens) + 1]
  return wrk.format("POST", "/functions/v1/create-checkout-session",
    { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token }, body)
end

local threads = {}
setup = function(thread)
  threads[#threads + 1] = thread
end

local report = done
done = function(summary, latency, requests)
  report(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do
    total = total + (thread:get("sent") or 0)
  end
  io.write(string.format("BENCH_SENT sent=%d\n", total))
end
