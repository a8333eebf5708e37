-- dbpress's clean-room prelude for sysbench 1.0 Lua scripts: the worker's event loop
-- (see base.lua for how the parts fit).

local dbp = ...
local ffi, C, ctx = dbp.ffi, dbp.C, dbp.ctx

-- The worker's loop, as sysbench's scripts inherit it (a script may define its own): in Lua, so
-- LuaJIT compiles the loop and the event into one trace. The runner claims, starts and records
-- each event: `next_event` for the first, then `event_step` (`event_done` and the next in one
-- call: one crossing into Rust and one clock read for the end of an event and the start of the
-- next). An error ends the loop; the runner retries the event (calling thread_run again, whose
-- first `next_event` resumes it) or ends the run. A true return from event() stops this
-- thread without counting the event, as in sysbench.
local c_next, c_step = C.next_event, C.event_step
function thread_run(tid)
  local event = event
  local more = c_next(ctx)
  while more ~= 0 do
    if event(tid) then
      return
    end
    more = c_step(ctx)
  end
end

