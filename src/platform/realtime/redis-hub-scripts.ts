import type { Redis } from 'ioredis';
import { REPLAY_BYTES, REPLAY_MESSAGES, REPLAY_MS } from './hub.ts';

// The realtime hub's data in Redis, and the scripts that change it, each in one round trip:
// realtime:seq:{user}          the user's latest sequence number
// realtime:replay:{user}       a stream of the user's recent messages, each entry's id its sequence
//                              number (so a resume reads from where it left off), with fields t (Redis
//                              time, ms) and m (the message); trimmed by Redis time, read by the clock's.
//                              A number skipped after an outage has no entry: a hole resumes cannot cross
// realtime:replay-bytes:{user} the bytes of the messages in that stream
// realtime                     the channel every instance hears, to reach connections wherever they are
//                              (each channel message an array of the messages one script sent)
// realtime:attached            sorted set user → when a connection of theirs last attached (ms), and the
//                              channel announcing each attach, so every instance knows whom a message can reach
export const CHANNEL = 'realtime';
export const ATTACHED = 'realtime:attached';
const SEQ_TTL_SECONDS = 86_400;

// A user's first number is the current time in ms (see RealtimeHub), set by whichever of sending
// and attaching comes first.
const START_SEQ = `redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ${SEQ_TTL_SECONDS})`;

// Number them, keep them, fan them out: the messages sent in one turn of the event loop, in one
// script and one PUBLISH (a JSON array), so a busy instance pays one round trip, one script call and
// one channel message per turn rather than per message. For each message (KEYS 2.. three per user,
// ARGV 2.. four per message): the message JSON is assembled here so the sequence number is in it;
// type and time are plain tokens, data is JSON already. Kept messages leave from the oldest until the
// rest are within the replay window, count and bytes, one entry per step, so each message is read once
// more at most, when it leaves. A stream left from before (its numbers past this one, after the
// counter was lost) is replaced: resuming into it could only have ended in a resync.
const SEND = `
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local at = string.format('%d', ms)
local seqs = {}
local published = {}
for i = 0, (#KEYS - 1) / 3 - 1 do
  local seqKey, replayKey, bytesKey = KEYS[2 + 3 * i], KEYS[3 + 3 * i], KEYS[4 + 3 * i]
  redis.call('SET', seqKey, ARGV[1], 'NX', 'EX', ${SEQ_TTL_SECONDS})
  local seq = redis.call('INCR', seqKey)
  redis.call('EXPIRE', seqKey, ${SEQ_TTL_SECONDS})
  local message = '{"type":"' .. ARGV[3 + 4 * i] .. '","seq":' .. string.format('%d', seq) .. ',"at":"' .. ARGV[4 + 4 * i] .. '","data":' .. ARGV[5 + 4 * i] .. '}'
  local id = string.format('%d', seq) .. '-0'
  local added = redis.pcall('XADD', replayKey, id, 't', at, 'm', message)
  if type(added) == 'table' and added.err then
    redis.call('DEL', replayKey, bytesKey)
    redis.call('XADD', replayKey, id, 't', at, 'm', message)
  end
  local bytes = redis.call('INCRBY', bytesKey, #message)
  local count = redis.call('XLEN', replayKey)
  while count > 1 do
    local first = redis.call('XRANGE', replayKey, '-', '+', 'COUNT', 1)[1]
    if count <= ${REPLAY_MESSAGES} and bytes <= ${REPLAY_BYTES} and tonumber(first[2][2]) >= ms - ${REPLAY_MS} then break end
    redis.call('XDEL', replayKey, first[1])
    bytes = redis.call('DECRBY', bytesKey, #first[2][4])
    count = count - 1
  end
  redis.call('PEXPIRE', replayKey, ${2 * REPLAY_MS})
  redis.call('PEXPIRE', bytesKey, ${2 * REPLAY_MS})
  seqs[#seqs + 1] = seq
  published[#published + 1] = '{"userId":' .. ARGV[2 + 4 * i] .. ',"message":' .. message .. '}'
end
redis.call('PUBLISH', KEYS[1], '[' .. table.concat(published, ',') .. ']')
return seqs`;

// The latest number and the kept messages after the resume point, read together so that none falls
// between the two; and the attach recorded and announced first, so every message numbered after
// `seq` is sent (see RedisHub.reaches). A resume from before the oldest kept message reads nothing
// more: it is a resync whatever the rest holds.
const READ = `
${START_SEQ}
redis.call('ZADD', KEYS[3], ARGV[1], ARGV[3])
redis.call('PUBLISH', KEYS[3], ARGV[3] .. ',' .. ARGV[1])
local seq = redis.call('GET', KEYS[1])
if ARGV[2] == '' then return {seq, {}} end
local after = tonumber(ARGV[2])
if after >= tonumber(seq) then return {seq, {}} end
local first = redis.call('XRANGE', KEYS[2], '-', '+', 'COUNT', 1)[1]
if not first or tonumber(string.match(first[1], '^%d+')) > after + 1 then return {seq, {}} end
return {seq, redis.call('XRANGE', KEYS[2], string.format('%d', after + 1), '+')}`;

// After an outage, for a user whose message could not be sent: a number is used up with no message
// behind it, so a resume from before it finds a hole in the stream and gets `resync`, and
// connections attached meanwhile are told on the channel.
const SKIP = `
${START_SEQ}
local seq = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ${SEQ_TTL_SECONDS})
redis.call('PUBLISH', KEYS[2], '{"userId":' .. ARGV[2] .. ',"resync":' .. string.format('%d', seq) .. '}')
return seq`;

type Send = (numberOfKeys: number, ...keysThenArgs: Array<string | number>) => Promise<number[]>;

/** A message to number, keep and publish (`data` is JSON). */
export interface Outgoing {
  userId: number;
  type: string;
  at: string;
  data: string;
}
type Read = (seqKey: string, replayKey: string, attachedKey: string, start: number, resumeAfter: number | '', userId: number) => Promise<[string, Array<[string, string[]]>]>;
type Skip = (seqKey: string, channel: string, start: number, userId: number) => Promise<number>;

export interface RealtimeScripts {
  /** Numbers, keeps and publishes the messages, in order, as one channel message; resolves to their sequence numbers. */
  send(messages: readonly Outgoing[], now: number): Promise<number[]>;
  /**
   * Records and announces an attach, and reads the user's latest number with, for a resume, the
   * messages kept after `resumeAfter` (none when the oldest kept is past it), as JSON texts.
   */
  read(userId: number, now: number, resumeAfter: number | undefined): Promise<{ seq: number; kept: string[] }>;
  /** Uses up the user's next number with no message behind it, and announces it. */
  skip(userId: number, now: number): Promise<number>;
}

/** The scripts defined on `redis` (the connection for commands, not the subscriber). */
export function realtimeScripts(redis: Redis): RealtimeScripts {
  // The number of keys follows the batch: given with each call.
  redis.defineCommand('realtimeSend', { lua: SEND });
  redis.defineCommand('realtimeRead', { numberOfKeys: 3, lua: READ });
  redis.defineCommand('realtimeSkip', { numberOfKeys: 2, lua: SKIP });
  const commands = redis as unknown as { realtimeSend: Send; realtimeRead: Read; realtimeSkip: Skip };
  return {
    send: (messages, now) =>
      commands.realtimeSend(
        1 + 3 * messages.length,
        CHANNEL,
        ...messages.flatMap(({ userId }) => [seqKey(userId), replayKey(userId), bytesKey(userId)]),
        now,
        ...messages.flatMap(({ userId, type, at, data }) => [userId, type, at, data]),
      ),
    read: async (userId, now, resumeAfter) => {
      const [seq, entries] = await commands.realtimeRead(seqKey(userId), replayKey(userId), ATTACHED, now, resumeAfter ?? '', userId);
      return { seq: Number(seq), kept: entries.map(([, fields]) => fields[3]) };
    },
    skip: (userId, now) => commands.realtimeSkip(seqKey(userId), CHANNEL, now, userId),
  };
}

const seqKey = (userId: number) => `realtime:seq:${userId}`;
const replayKey = (userId: number) => `realtime:replay:${userId}`;
const bytesKey = (userId: number) => `realtime:replay-bytes:${userId}`;
