-- dbpress's clean-room prelude for sysbench 1.0 Lua scripts: the built-in reporters a script
-- may set as its hooks (`sysbench.hooks.report_intermediate = sysbench.report_csv`) or call
-- from its own (see base.lua for how the parts fit). Each prints one report of `stat` (counts
-- over `stat.time_interval` seconds, latency in seconds) in sysbench's layout, through the
-- `io.write` output.lua routed to dbpress's stdout (kept here, so a script replacing io.write
-- does not change its reports).

local format, write, floor = string.format, io.write, math.floor

-- `x` with `places` decimals, as sysbench's LuaJIT formats it: a value exactly halfway
-- (12.5 for none, 0.125 for two) rounds away from zero there and to even in this LuaJIT, so
-- ties are rounded here. A tie at `places` is an odd multiple of 2^-(places+1), exactly.
local function fixed(x, places)
  local y = x * 2 ^ (places + 1)
  if x >= 0 and y == floor(y) and y % 2 == 1 and x < 2 ^ 40 then
    local scale = 10 ^ places
    local n = floor(x * scale + 0.5)
    if places == 0 then
      return format("%.0f", n)
    end
    return format("%.0f.%0" .. places .. "d", floor(n / scale), n % scale)
  end
  return format("%." .. places .. "f", x)
end

-- The figures of a report as sysbench prints them: its time in whole seconds, counts per
-- second of its interval and the latency in ms with two decimals.
local function figures(stat)
  local t = stat.time_interval
  local function rate(n) return fixed(n / t, 2) end
  return {
    time = fixed(stat.time_total, 0),
    threads = format("%d", stat.threads_running),
    tps = rate(stat.events),
    qps = rate(stat.reads + stat.writes + stat.other),
    reads = rate(stat.reads),
    writes = rate(stat.writes),
    other = rate(stat.other),
    errors = rate(stat.errors),
    reconnects = rate(stat.reconnects),
    latency = fixed(stat.latency_pct * 1000, 2),
  }
end

-- Like dbpress's own interval line, but `err/s` has no colon here, as in sysbench's.
function sysbench.report_default(stat)
  local r = figures(stat)
  write(format("[ %ss ] thds: %s tps: %s qps: %s (r/w/o: %s/%s/%s) lat (ms,%d%%): %s err/s %s " ..
    "reconn/s: %s\n", r.time, r.threads, r.tps, r.qps, r.reads, r.writes, r.other,
    sysbench.opt.percentile, r.latency, r.errors, r.reconnects))
end

-- time, threads, tps, qps, reads/s, writes/s, other/s, latency (ms), errors/s, reconnects/s.
function sysbench.report_csv(stat)
  local r = figures(stat)
  write(format("%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", r.time, r.threads, r.tps, r.qps, r.reads,
    r.writes, r.other, r.latency, r.errors, r.reconnects))
end

-- One JSON array over the state's life: `[` before the first object, `,` between them, and
-- `]` when the state is closed (a proxy's finaliser runs then), so the objects end without a
-- newline until the next one or the close.
local json_open = nil
function sysbench.report_json(stat)
  if json_open == nil then
    json_open = newproxy(true)
    getmetatable(json_open).__gc = function() write("\n]\n") end
    write("[\n")
  else
    write(",\n")
  end
  local r = figures(stat)
  write(format([[
  {
    "time": %4s,
    "threads": %s,
    "tps": %s,
    "qps": {
      "total": %s,
      "reads": %s,
      "writes": %s,
      "other": %s
    },
    "latency": %s,
    "errors": %s,
    "reconnects": %s
  }]], r.time, r.threads, r.tps, r.qps, r.reads, r.writes, r.other, r.latency, r.errors,
    r.reconnects))
end
