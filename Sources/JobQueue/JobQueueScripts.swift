/// The job queue's Lua scripts: each step that reads and writes a job is one atomic script, so
/// two workers, or a worker and an API node, never interleave inside it. Times are Redis's own
/// (`TIME`), so workers' clocks do not matter.
///
/// Keys: KEYS[1] the job's hash, KEYS[2] the jobs stream, KEYS[3] the dead-letter stream (or the
/// index). The stream's consumer group is `workers`. A stream entry is deleted (XACK + XDEL)
/// only when its job has ended or was queued again under a new entry: nothing trims the stream,
/// so no unacknowledged job is ever dropped.
enum JobQueueScripts {
    private static let prelude = """
        local t = redis.call('TIME')
        local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        local function drop(entry)
          if entry and entry ~= '' then
            redis.call('XACK', KEYS[2], 'workers', entry)
            redis.call('XDEL', KEYS[2], entry)
          end
        end

        """

    /// ARGV: id, kind, body, details. → {1, kind} created, {0, kind} the id existed.
    static let submit = RedisScript(name: "submit", source: prelude + """
        if redis.call('EXISTS', KEYS[1]) == 1 then
          return {0, redis.call('HGET', KEYS[1], 'kind') or ''}
        end
        local entry = redis.call('XADD', KEYS[2], '*', 'id', ARGV[1])
        redis.call('HSET', KEYS[1], 'id', ARGV[1], 'kind', ARGV[2], 'body', ARGV[3], 'details', ARGV[4],
          'state', 'queued', 'attempts', 0, 'fence', 0, 'created_ms', now, 'entry', entry)
        redis.call('ZADD', KEYS[3], now, ARGV[1])
        return {1, ARGV[2]}
        """)

    /// A worker takes the job a stream entry named. ARGV: id, entry, worker, lease ms, max
    /// attempts, reclaiming (1 when the entry came from XAUTOCLAIM).
    /// → {'claimed', fence, attempts, kind, body, previous worker} or {'skip', why} or {'dead', error}.
    static let claim = RedisScript(name: "claim", source: prelude + """
        local job = KEYS[1]
        if redis.call('EXISTS', job) == 0 then drop(ARGV[2]); return {'skip', 'gone'} end
        local state = redis.call('HGET', job, 'state')
        if redis.call('HGET', job, 'entry') ~= ARGV[2] then drop(ARGV[2]); return {'skip', 'stale entry'} end
        if state == 'done' or state == 'failed' then drop(ARGV[2]); return {'skip', 'ended'} end
        if ARGV[6] == '1' and tonumber(redis.call('HGET', job, 'lease_until') or '0') > now then
          return {'skip', 'leased'}
        end
        if redis.call('HGET', job, 'stop') == '1' then
          redis.call('HSET', job, 'state', 'done', 'ended_ms', now, 'worker', '', 'result', '{"stopped_by":"api"}')
          drop(ARGV[2])
          return {'skip', 'stopped'}
        end
        local attempts = tonumber(redis.call('HGET', job, 'attempts') or '0')
        if attempts >= tonumber(ARGV[5]) then
          local err = redis.call('HGET', job, 'error')
          if not err or err == '' then err = 'its worker stopped renewing its lease' end
          redis.call('HSET', job, 'state', 'failed', 'dead', '1', 'ended_ms', now, 'worker', '', 'error', err)
          redis.call('XADD', KEYS[3], '*', 'id', ARGV[1], 'error', err, 'attempts', attempts)
          drop(ARGV[2])
          return {'dead', err}
        end
        attempts = redis.call('HINCRBY', job, 'attempts', 1)
        local fence = redis.call('HINCRBY', job, 'fence', 1)
        local previous = redis.call('HGET', job, 'worker') or ''
        if ARGV[6] == '1' then redis.call('HINCRBY', job, 'reclaims', 1) end
        redis.call('HSET', job, 'state', 'claimed', 'worker', ARGV[3], 'lease_until', now + tonumber(ARGV[4]), 'claimed_ms', now)
        -- The entry's idle time starts at the lease's start (TIME now): XAUTOCLAIM finds it idle
        -- past the lease only once the lease has lapsed (its delivery may have come well before).
        redis.call('XCLAIM', KEYS[2], 'workers', ARGV[3], 0, ARGV[2], 'TIME', now, 'JUSTID')
        return {'claimed', fence, attempts, redis.call('HGET', job, 'kind'), redis.call('HGET', job, 'body'), previous}
        """)

    /// The holder's heartbeat. ARGV: fence, worker, lease ms, progress JSON, started (1/0).
    /// Resets the entry's idle time to the lease's start (XCLAIM to the holder with TIME now), so
    /// XAUTOCLAIM sees a lapsed lease only.
    /// → {'ok', stop} or {'fenced'}.
    static let renew = RedisScript(name: "renew", source: prelude + """
        local job = KEYS[1]
        if tostring(redis.call('HGET', job, 'fence')) ~= ARGV[1] then return {'fenced'} end
        redis.call('HSET', job, 'lease_until', now + tonumber(ARGV[3]), 'progress', ARGV[4])
        local state = redis.call('HGET', job, 'state')
        if ARGV[5] == '1' and state == 'claimed' then redis.call('HSET', job, 'state', 'running', 'started_ms', now) end
        local entry = redis.call('HGET', job, 'entry')
        if entry and entry ~= '' then redis.call('XCLAIM', KEYS[2], 'workers', ARGV[2], 0, entry, 'TIME', now, 'JUSTID') end
        return {'ok', redis.call('HGET', job, 'stop') or '0'}
        """)

    /// The holder is done with the job. ARGV: fence, outcome, result JSON, error, max attempts,
    /// retention seconds. Outcomes: `done`, `failed` (ends it), `retry` (queued again unless its
    /// attempts are used up: then failed and dead-lettered), `release` (queued again, the attempt
    /// not counted: a worker shutting down or short of room).
    /// → {'fenced'} or {state}.
    static let finish = RedisScript(name: "finish", source: prelude + """
        local job = KEYS[1]
        if tostring(redis.call('HGET', job, 'fence')) ~= ARGV[1] then return {'fenced'} end
        local outcome = ARGV[2]
        local entry = redis.call('HGET', job, 'entry')
        local stopped = redis.call('HGET', job, 'stop') == '1'
        if ARGV[4] ~= '' then redis.call('HSET', job, 'error', ARGV[4]) end
        if (outcome == 'retry' or outcome == 'release') and stopped then
          outcome = (outcome == 'retry') and 'failed' or 'done'
        end
        if outcome == 'release' then redis.call('HINCRBY', job, 'attempts', -1) end
        if outcome == 'retry' and tonumber(redis.call('HGET', job, 'attempts') or '0') >= tonumber(ARGV[5]) then
          redis.call('HSET', job, 'dead', '1')
          redis.call('XADD', KEYS[3], '*', 'id', redis.call('HGET', job, 'id'), 'error', ARGV[4],
            'attempts', redis.call('HGET', job, 'attempts'))
          outcome = 'failed'
        end
        drop(entry)
        if outcome == 'retry' or outcome == 'release' then
          local fresh = redis.call('XADD', KEYS[2], '*', 'id', redis.call('HGET', job, 'id'))
          redis.call('HSET', job, 'state', 'queued', 'entry', fresh, 'worker', '', 'lease_until', 0)
          return {'queued'}
        end
        redis.call('HSET', job, 'state', outcome, 'ended_ms', now, 'entry', '', 'lease_until', 0)
        if ARGV[3] ~= '' then redis.call('HSET', job, 'result', ARGV[3]) end
        redis.call('EXPIRE', job, tonumber(ARGV[6]))
        return {outcome}
        """)

    /// The API's DELETE. → {'missing'} or {state after}: a queued job ends at once, a held one is
    /// `stopping` until its worker sees the flag (on its next stop check) and ends it.
    static let stop = RedisScript(name: "stop", source: prelude + """
        local job = KEYS[1]
        if redis.call('EXISTS', job) == 0 then return {'missing'} end
        local state = redis.call('HGET', job, 'state')
        if state == 'queued' then
          drop(redis.call('HGET', job, 'entry'))
          redis.call('HSET', job, 'stop', '1', 'state', 'done', 'ended_ms', now, 'entry', '', 'result', '{"stopped_by":"api"}')
          return {'done'}
        end
        if state == 'claimed' or state == 'running' then
          redis.call('HSET', job, 'stop', '1', 'state', 'stopping')
          return {'stopping'}
        end
        return {state}
        """)

    /// The newest jobs for GET /v1/jobs, each as HGETALL's array; ids whose hash expired leave
    /// the index. ARGV: count, index cap (older ids beyond it are dropped).
    static let list = RedisScript(name: "list", source: """
        local ids = redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)
        local jobs = {}
        for _, id in ipairs(ids) do
          local fields = redis.call('HGETALL', KEYS[2] .. id)
          if #fields == 0 then redis.call('ZREM', KEYS[1], id) else table.insert(jobs, fields) end
        end
        redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -tonumber(ARGV[2]) - 1)
        return jobs
        """)
}
