// Imported first by bench/run.ts: @livekit/rtc-node logs at debug level (JSON lines on stdout) unless
// NODE_ENV is production, and reads it once when its logger module loads.
process.env.NODE_ENV = 'production';
