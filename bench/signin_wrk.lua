-- wrk script for bench/signin.py: password sign-ins, cycling over BENCH_USERS accounts
-- (bench-<n>@example.test, password "bench password <n>") created beforehand.
dofile("bench/wrk_report.lua")

local users = tonumber(os.getenv("BENCH_USERS") or "16")
local counter = 0

request = function()
  counter = counter + 1
  local n = counter % users
  local body = string.format('{"email":"bench-%d@example.test","password":"bench password %d"}', n, n)
  return wrk.format("POST", "/auth/v1/token?grant_type=password", { ["Content-Type"] = "application/json" }, body)
end
