// End-to-end driver for kafkajs (pure JavaScript), used by interop/scripts/e2e.sh.
//
//   node e2e_kafkajs.js --bootstrap HOST:PORT [--sasl USER:PASS] [--soak-secs N]
//
// Lists metadata, creates a topic, produces three records (k0..k2,
// hello-0..2, header h=v), consumes them through a consumer group, commits
// and checks the committed offset; with --soak-secs, then keeps producing
// and consuming one record at a time on the same connections for N seconds
// (KIP-368 re-authentication when the broker sets a session lifetime);
// finally deletes the topic.
// Prints one line per step, then OK (exit 0) or FAIL (exit 1). Every wait is
// bounded.
'use strict';

const { Kafka, logLevel } = require('kafkajs');

const GROUP_TIMEOUT_MS = 60000;

function parseArgs(argv) {
  const args = { bootstrap: null, sasl: null, soakSecs: 0 };
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1];
    switch (argv[i]) {
      case '--bootstrap': args.bootstrap = value; i++; break;
      case '--sasl': args.sasl = value; i++; break;
      case '--soak-secs': args.soakSecs = Number(value); i++; break;
      default: throw new Error(`unknown argument ${argv[i]}`);
    }
  }
  if (!args.bootstrap) throw new Error('--bootstrap HOST:PORT is required');
  return args;
}

function check(condition, message) {
  if (!condition) throw new Error(message);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Resolves when `predicate()` holds, rejects after `ms`.
async function waitFor(predicate, ms, what) {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const config = {
    clientId: 'kafkajs-e2e',
    brokers: [args.bootstrap],
    logLevel: logLevel.WARN,
    connectionTimeout: 5000,
    requestTimeout: 15000,
    retry: { retries: 5 },
    // Re-authenticate when less than 1 s of the session is left.
    reauthenticationThreshold: 1000,
  };
  if (args.sasl) {
    const [username, password] = args.sasl.split(':');
    config.sasl = { mechanism: 'plain', username, password };
  }
  const kafka = new Kafka(config);
  const topic = 't-kafkajs-' + Math.random().toString(16).slice(2, 10);
  const groupId = 'g-' + topic;

  const admin = kafka.admin();
  await admin.connect();
  const topics = await admin.listTopics();
  console.log(`metadata: ${topics.length} topics`);
  await admin.createTopics({ topics: [{ topic, numPartitions: 1, replicationFactor: 1 }], waitForLeaders: true });
  console.log(`created ${topic}`);

  const producer = kafka.producer();
  await producer.connect();
  const sent = await producer.send({
    topic,
    messages: [0, 1, 2].map((i) => ({ key: `k${i}`, value: `hello-${i}`, headers: { h: 'v' } })),
  });
  check(sent[0].errorCode === 0 && sent[0].baseOffset === '0', `produce answered ${JSON.stringify(sent)}`);
  console.log('produced 3 records');

  const consumer = kafka.consumer({ groupId, sessionTimeout: 10000, heartbeatInterval: 1000, maxWaitTimeInMs: 1000 });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  const got = [];
  await consumer.run({
    autoCommit: false,
    eachMessage: async ({ message }) => {
      got.push({
        key: message.key.toString(),
        value: message.value.toString(),
        offset: message.offset,
        h: message.headers.h && message.headers.h.toString(),
      });
    },
  });
  await waitFor(() => got.length >= 3, GROUP_TIMEOUT_MS, 'three records through the group');
  const first = got.slice(0, 3);
  const want = [0, 1, 2].map((i) => ({ key: `k${i}`, value: `hello-${i}`, offset: `${i}`, h: 'v' }));
  check(JSON.stringify(first) === JSON.stringify(want), `consumed ${JSON.stringify(first)}`);
  console.log(`consumed through group ${groupId}: ${JSON.stringify(first.map((m) => [m.key, m.value, m.offset]))}, headers h=v`);

  await consumer.commitOffsets([{ topic, partition: 0, offset: '3' }]);
  const committed = await admin.fetchOffsets({ groupId, topics: [topic] });
  const offset = committed[0].partitions[0].offset;
  check(offset === '3', `committed offset ${offset}, expected 3`);
  console.log('committed offset 3');

  if (args.soakSecs > 0) {
    // One record at a time on the same connections, for soakSecs.
    const end = Date.now() + args.soakSecs * 1000;
    let n = 0;
    while (Date.now() < end) {
      await producer.send({ topic, messages: [{ key: 'soak', value: String(n) }] });
      n++;
      await waitFor(() => got.length >= 3 + n, 15000, `soak record ${n - 1}`);
      await sleep(500);
    }
    const values = got.slice(3).map((m) => Number(m.value));
    check(JSON.stringify(values) === JSON.stringify([...Array(n).keys()]), `soak got ${values}`);
    console.log(`soak: ${n} records produced and consumed over ${args.soakSecs} s`);
  }

  await consumer.disconnect();
  await producer.disconnect();

  // DeleteTopics (forwarded to the controller like CreateTopics).
  await admin.deleteTopics({ topics: [topic], timeout: 15000 });
  const left = await admin.listTopics();
  check(!left.includes(topic), `${topic} still listed after DeleteTopics`);
  console.log(`deleted ${topic}`);
  await admin.disconnect();
}

// The whole run is bounded too.
const overall = setTimeout(() => {
  console.log('FAIL: timed out');
  process.exit(1);
}, 180000);

main()
  .then(() => {
    clearTimeout(overall);
    console.log('OK');
    process.exit(0);
  })
  .catch((e) => {
    console.log(`FAIL: ${e.name}: ${e.message}`);
    process.exit(1);
  });
