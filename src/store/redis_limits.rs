//! Request counters kept in Redis (`SIGNALWATCH_REDIS_URL`): the same fixed windows as the
//! database counters, for deployments that would rather not write to the database per request.

use redis::aio::MultiplexedConnection;

/// Counts one request and returns the window's count and the milliseconds it has left, in one
/// atomic step; the first request of a window starts its clock.
const COUNT: &str = r"
local count = redis.call('INCR', KEYS[1])
local left = redis.call('PTTL', KEYS[1])
if count == 1 or left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return {count, left}
";

/// Counters in one Redis server.
#[derive(Clone)]
pub struct RedisWindows {
    connection: MultiplexedConnection,
    script: redis::Script,
}

impl std::fmt::Debug for RedisWindows {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RedisWindows")
    }
}

impl RedisWindows {
    /// Connects to `redis://…`.
    pub async fn connect(url: &str) -> redis::RedisResult<RedisWindows> {
        let client = redis::Client::open(url)?;
        Ok(RedisWindows {
            connection: client.get_multiplexed_async_connection().await?,
            script: redis::Script::new(COUNT),
        })
    }

    /// Counts one request of `team_id` on `endpoint` at `now` in a window of `window_ms`;
    /// returns the window's opening time and its count including this request.
    pub async fn count_request(
        &self,
        team_id: &str,
        endpoint: &str,
        now: i64,
        window_ms: i64,
    ) -> redis::RedisResult<(i64, i64)> {
        let key = format!("signalwatch:rate:{team_id}:{endpoint}");
        let mut connection = self.connection.clone();
        let (count, left): (i64, i64) = self
            .script
            .key(key)
            .arg(window_ms)
            .invoke_async(&mut connection)
            .await?;
        Ok((now - (window_ms - left), count))
    }
}
