"""The Lua scripts of the Redis backend (脚本): each does in one call what must not be split (a fenced write,
a lease taken or renewed, a queue's round of matchmaking)."""

WRITE = """
local out, a = {}, 2
for g = 1, tonumber(ARGV[1]) do
  local k, n = (g - 1) * 4, tonumber(ARGV[a + 1])
  local e = redis.call('GET', KEYS[k + 1])
  local r = 1
  if not e then r = -2 elseif e ~= ARGV[a] then r = -1 end
  a = a + 2
  if r == 1 then
    for i = a, a + 3 * n - 1, 3 do
      redis.pcall('XADD', KEYS[k + 1 + tonumber(ARGV[i])], ARGV[i + 1], 'd', ARGV[i + 2])
    end
  end
  a = a + 3 * n
  out[g] = r
end
for i = a + 1, a + 3 * tonumber(ARGV[a]), 3 do
  local g = tonumber(ARGV[i])
  if g == 0 or out[g] ~= -1 then redis.call('PUBLISH', ARGV[i + 1], ARGV[i + 2]) end
end
return out
"""
"""One write of the owner's queue in one call. For each match (group ``g``: ``KEYS[4g-3..4g]`` are its
epoch, log and two seat streams; ``ARGV``: its epoch, ``n``, then ``n`` times stream 1-3, entry id, data) the
fence is checked once and the entries appended (an id already stored is a write already done: skipped); then
the publications (``ARGV``: their count, then group or 0, channel, data), after the entries queued before
them, a fenced match's dropped. Returns each group's 1 (stored), -1 (fenced: another owner's epoch) or -2 (no
epoch: Redis lost the match)."""
ACQUIRE = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return redis.call('INCR', KEYS[2]) end
return 0
"""
RENEW = """
redis.call('SET', KEYS[1], '1', 'PX', ARGV[2])
local out, pid, ms = {}, ARGV[1], ARGV[2]
for i = 1, (#KEYS - 1) / 2 do
  local lease, epoch, mine = KEYS[2 * i], KEYS[2 * i + 1], ARGV[2 + i]
  local cur, e = redis.call('GET', lease), redis.call('GET', epoch)
  local r = 0
  if cur == pid then
    if e == mine then redis.call('PEXPIRE', lease, ms); r = 1
    elseif not e then redis.call('SET', epoch, mine); redis.call('PEXPIRE', lease, ms); r = 3 end
  elseif not cur then
    if not e then redis.call('SET', epoch, mine); redis.call('SET', lease, pid, 'PX', ms); r = 3
    elseif e == mine then redis.call('SET', lease, pid, 'PX', ms); r = 2 end
  end
  out[i] = r
end
return out
"""
"""The process's heartbeat (``KEYS[1]``) and its leases, in one call: for each match (``KEYS[2i]`` its lease,
``KEYS[2i+1]`` its epoch, ``ARGV[2+i]`` the epoch held here; ``ARGV[1]`` the pid, ``ARGV[2]`` the lease in
ms) 1: renewed, 2: taken again (it had run out, no one took it), 3: Redis had lost it (lease and epoch set
again: the match is to be stored again), 0: lost to a newer owner."""
RESET = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -1 end
for i = 2, #KEYS do redis.call('DEL', KEYS[i]) end
return 1
"""
DEL_IF = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
POP_PAIR = """
if redis.call('ZCARD', KEYS[1]) >= 2 then return redis.call('ZPOPMIN', KEYS[1], 2) end
return {}
"""
POP_ROUND = """
local out = {}
local n = #KEYS / 2
local now, window, widen = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
for i = 1, n do
  local q, rk = KEYS[i], KEYS[n + i]
  local pairs = {}
  local flat = redis.call('ZRANGE', q, 0, -1, 'WITHSCORES')
  if #flat >= 4 then
    local ids, ts, rs, used = {}, {}, {}, {}
    for j = 1, #flat, 2 do
      ids[#ids + 1] = flat[j]
      ts[#ts + 1] = tonumber(flat[j + 1])
    end
    local got = redis.call('HMGET', rk, unpack(ids))
    for j = 1, #ids do rs[j] = tonumber(got[j]) or tonumber(ARGV[5]) end
    for a = 1, #ids do
      if not used[a] then
        local best, gap = nil, nil
        for b = 1, #ids do
          if b ~= a and not used[b] then
            local d = math.abs(rs[a] - rs[b])
            if gap == nil or d < gap then best, gap = b, d end
          end
        end
        if best ~= nil and gap <= window + widen * (now - math.min(ts[a], ts[best])) then
          used[a], used[best] = true, true
          pairs[#pairs + 1] = ids[a]
          pairs[#pairs + 1] = ids[best]
        end
      end
    end
    if #pairs > 0 then
      redis.call('ZREM', q, unpack(pairs))
      redis.call('HDEL', rk, unpack(pairs))
    end
  end
  local waited = redis.call('ZRANGEBYSCORE', q, '-inf', ARGV[1])
  if #waited > 0 then
    redis.call('ZREM', q, unpack(waited))
    redis.call('HDEL', rk, unpack(waited))
  end
  out[i] = {pairs, waited}
end
return out
"""
"""Every room's queue in one call (``KEYS``: the queues, then their ratings hashes; ``ARGV``: the time before
which a queued id has waited for a bot, now, the rating window, its widening per second, the rating of an id
with none): its pairs by rating (the rule of :func:`erma.server.pairing.pair_by_rating`, as a flat list of
ids) and the ids that waited."""
POP_WAITED = """
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if #ids > 0 then redis.call('ZREM', KEYS[1], unpack(ids)) end
return ids
"""
