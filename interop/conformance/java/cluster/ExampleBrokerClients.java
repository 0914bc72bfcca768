// Kafka's own Java clients (producer, classic consumer group, AdminClient)
// against a broker: the example broker of kwire (examples/broker) in
// interop/tests/example_broker_java.rs. Every result is one line on stdout, built
// only from what the clients return, so the test can compare them exactly;
// diagnostics go to stderr.
//
// usage: ExampleBrokerClients BOOTSTRAP COMMAND ARGS...
//   produce TOPIC FROM COUNT       records k<i>/v<i> with header n=<i>, i = FROM..FROM+COUNT-1,
//                                  idempotent producer, acks=all
//   consume TOPIC GROUP COUNT      classic consumer group: subscribe, poll COUNT records,
//                                  commitSync, print the committed offsets, close
//   group-offsets GROUP            AdminClient listConsumerGroupOffsets
//   cluster                        AdminClient describeCluster
//   topic TOPIC PARTITIONS         AdminClient createTopics (retention.ms=3600000), listTopics,
//                                  describeTopics
//   configs TOPIC                  AdminClient describeConfigs and incrementalAlterConfigs
//                                  (SET, DELETE, APPEND, SUBTRACT), AlterConfigs v2 (with the
//                                  clients' request classes), validateOnly, unknown names,
//                                  unknown topics, null values, broker configs

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.AlterConfigsOptions;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.AlterConfigsRequest;
import org.apache.kafka.common.requests.AlterConfigsResponse;
import org.apache.kafka.common.requests.ApiError;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

public class ExampleBrokerClients {
    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: ExampleBrokerClients BOOTSTRAP COMMAND ARGS...");
            System.exit(2);
        }
        String bootstrap = args[0];
        String command = args[1];
        String[] rest = Arrays.copyOfRange(args, 2, args.length);
        switch (command) {
            case "produce":
                produce(bootstrap, rest[0], Integer.parseInt(rest[1]), Integer.parseInt(rest[2]));
                break;
            case "consume":
                consume(bootstrap, rest[0], rest[1], Integer.parseInt(rest[2]));
                break;
            case "group-offsets":
                groupOffsets(bootstrap, rest[0]);
                break;
            case "cluster":
                cluster(bootstrap);
                break;
            case "topic":
                topic(bootstrap, rest[0], Integer.parseInt(rest[1]));
                break;
            case "configs":
                configs(bootstrap, rest[0]);
                break;
            default:
                System.err.println("unknown command " + command);
                System.exit(2);
        }
        System.out.println("done " + command);
        System.out.flush();
    }

    static Properties common(String bootstrap) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("request.timeout.ms", "20000");
        p.put("default.api.timeout.ms", "30000");
        return p;
    }

    static void produce(String bootstrap, String topic, int from, int count) throws Exception {
        Properties p = common(bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "30000");
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "java-producer");
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (int i = from; i < from + count; i++) {
                ProducerRecord<String, String> record = new ProducerRecord<>(topic, 0, "k" + i, "v" + i);
                record.headers().add("n", Integer.toString(i).getBytes("UTF-8"));
                sent.add(producer.send(record));
            }
            producer.flush();
            for (int i = 0; i < sent.size(); i++) {
                RecordMetadata m = sent.get(i).get();
                System.out.println("produced " + m.topic() + "-" + m.partition() + "@" + m.offset() + " k" + (from + i));
            }
        }
    }

    static void consume(String bootstrap, String topic, String group, int count) throws Exception {
        Properties p = common(bootstrap);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "java-consumer");
        p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "10000");
        p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "1000");
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(Collections.singletonList(topic));
            int seen = 0;
            long deadline = System.currentTimeMillis() + 60_000;
            while (seen < count && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                    StringBuilder headers = new StringBuilder();
                    for (Header h : r.headers()) {
                        headers.append(' ').append(h.key()).append('=').append(new String(h.value(), "UTF-8"));
                    }
                    System.out.println("consumed " + r.topic() + "-" + r.partition() + "@" + r.offset() + " "
                            + r.key() + "=" + r.value() + headers);
                    seen++;
                }
            }
            if (seen < count) {
                System.out.println("timed out after " + seen + " of " + count + " records");
                return;
            }
            System.out.println("assignment " + new TreeSet<>(names(consumer.assignment())));
            consumer.commitSync();
            Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(consumer.assignment());
            for (Map.Entry<String, TopicPartition> e : byName(committed.keySet()).entrySet()) {
                OffsetAndMetadata o = committed.get(e.getValue());
                System.out.println("committed " + e.getKey() + " " + (o == null ? "none" : Long.toString(o.offset())));
            }
        }
    }

    static Admin admin(String bootstrap) {
        Properties p = common(bootstrap);
        p.put(AdminClientConfig.CLIENT_ID_CONFIG, "java-admin");
        return Admin.create(p);
    }

    static void groupOffsets(String bootstrap, String group) throws Exception {
        try (Admin admin = admin(bootstrap)) {
            Map<TopicPartition, OffsetAndMetadata> offsets =
                    admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
            for (Map.Entry<String, TopicPartition> e : byName(offsets.keySet()).entrySet()) {
                System.out.println("group-offset " + group + " " + e.getKey() + " " + offsets.get(e.getValue()).offset());
            }
        }
    }

    static void cluster(String bootstrap) throws Exception {
        try (Admin admin = admin(bootstrap)) {
            DescribeClusterResult c = admin.describeCluster();
            System.out.println("cluster-id " + c.clusterId().get());
            Node controller = c.controller().get();
            System.out.println("controller " + controller.id() + " " + controller.host() + ":" + controller.port());
            for (Node n : c.nodes().get()) {
                System.out.println("node " + n.id() + " " + n.host() + ":" + n.port());
            }
        }
    }

    static void topic(String bootstrap, String topic, int partitions) throws Exception {
        try (Admin admin = admin(bootstrap)) {
            NewTopic t = new NewTopic(topic, partitions, (short) 1)
                    .configs(Collections.singletonMap("retention.ms", "3600000"));
            admin.createTopics(Collections.singletonList(t)).all().get();
            System.out.println("created " + topic);
            System.out.println("listed " + admin.listTopics().names().get().contains(topic));
            TopicDescription d = admin.describeTopics(Collections.singletonList(topic)).allTopicNames().get().get(topic);
            for (TopicPartitionInfo p : d.partitions()) {
                System.out.println("partition " + d.name() + "-" + p.partition() + " leader " + p.leader().id() + " "
                        + p.leader().host() + ":" + p.leader().port() + " replicas " + p.replicas().size());
            }
            try {
                admin.createTopics(Collections.singletonList(new NewTopic(topic, 1, (short) 1))).all().get();
                System.out.println("created again");
            } catch (ExecutionException e) {
                System.out.println("create again: " + e.getCause().getClass().getSimpleName());
            }
        }
    }

    // The topic configs the configs scenario prints (others are counted).
    static final List<String> SHOWN = Arrays.asList(
            "cleanup.policy", "retention.ms", "max.message.bytes", "min.insync.replicas", "segment.bytes",
            "compression.type", "min.cleanable.dirty.ratio", "preallocate", "leader.replication.throttled.replicas");

    static void configs(String bootstrap, String topic) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        try (Admin admin = admin(bootstrap)) {
            admin.createTopics(Collections.singletonList(new NewTopic(topic, 1, (short) 1)
                    .configs(Collections.singletonMap("retention.ms", "3600000")))).all().get();

            // Every topic config, then the shown ones in detail.
            Config all = describe(admin, resource);
            TreeSet<String> names = new TreeSet<>();
            for (ConfigEntry e : all.entries()) {
                names.add(e.name());
            }
            System.out.println("topic-config-names " + String.join(",", names));
            show("created", all);

            // alterConfigs (deprecated, whole set): replaces every override.
            Map<String, String> legacy = new TreeMap<>();
            legacy.put("cleanup.policy", "compact");
            legacy.put("max.message.bytes", "2000000");
            alterLegacy(bootstrap, resource, legacy, false, "alter");
            show("after-alter", describe(admin, resource));

            // incrementalAlterConfigs: SET, DELETE, APPEND, SUBTRACT.
            incremental(admin, resource, false, "incremental",
                    op("retention.ms", "7200000", AlterConfigOp.OpType.SET),
                    op("max.message.bytes", null, AlterConfigOp.OpType.DELETE),
                    op("cleanup.policy", "delete", AlterConfigOp.OpType.APPEND),
                    op("leader.replication.throttled.replicas", "0:1,1:1", AlterConfigOp.OpType.APPEND));
            show("after-incremental", describe(admin, resource));
            incremental(admin, resource, false, "subtract",
                    op("cleanup.policy", "compact", AlterConfigOp.OpType.SUBTRACT),
                    op("leader.replication.throttled.replicas", "0:1", AlterConfigOp.OpType.SUBTRACT));
            show("after-subtract", describe(admin, resource));

            // validateOnly: checked, answered, not applied.
            incremental(admin, resource, true, "validate-only",
                    op("retention.ms", "1000", AlterConfigOp.OpType.SET),
                    op("cleanup.policy", null, AlterConfigOp.OpType.DELETE));
            alterLegacy(bootstrap, resource, Collections.singletonMap("segment.bytes", "2000000"), true,
                    "alter-validate-only");
            show("after-validate-only", describe(admin, resource));

            // Refusals.
            incremental(admin, resource, false, "unknown-name",
                    op("no.such.config", "1", AlterConfigOp.OpType.SET));
            incremental(admin, resource, true, "unknown-name-validate-only",
                    op("no.such.config", "1", AlterConfigOp.OpType.SET));
            alterLegacy(bootstrap, resource, Collections.singletonMap("no.such.config", "1"), false,
                    "alter-unknown-name");
            alterLegacy(bootstrap, new ConfigResource(ConfigResource.Type.TOPIC, topic + "-missing"),
                    Collections.singletonMap("retention.ms", "1000"), false, "alter-unknown-topic");
            incremental(admin, resource, false, "bad-value",
                    op("retention.ms", "soon", AlterConfigOp.OpType.SET));
            incremental(admin, resource, false, "append-to-long",
                    op("retention.ms", "5", AlterConfigOp.OpType.APPEND));
            show("after-refusals", describe(admin, resource));

            ConfigResource missing = new ConfigResource(ConfigResource.Type.TOPIC, topic + "-missing");
            incremental(admin, missing, false, "unknown-topic",
                    op("retention.ms", "1000", AlterConfigOp.OpType.SET));
            try {
                describe(admin, missing);
                System.out.println("describe-unknown-topic ok");
            } catch (ExecutionException e) {
                System.out.println("describe-unknown-topic " + e.getCause().getClass().getSimpleName());
            }

            // A second topic: APPEND with no override yet, DELETE of names never
            // set or unknown, a null value, the same name twice.
            ConfigResource second = new ConfigResource(ConfigResource.Type.TOPIC, topic + "-b");
            admin.createTopics(Collections.singletonList(new NewTopic(second.name(), 1, (short) 1))).all().get();
            incremental(admin, second, false, "append-to-default",
                    op("cleanup.policy", "compact", AlterConfigOp.OpType.APPEND));
            System.out.println("second " + entry(describe(admin, second).get("cleanup.policy")));
            incremental(admin, second, false, "delete-unset", op("retention.ms", null, AlterConfigOp.OpType.DELETE));
            incremental(admin, second, false, "delete-unknown-name",
                    op("no.such.config", null, AlterConfigOp.OpType.DELETE));
            incremental(admin, second, false, "set-null", op("retention.ms", null, AlterConfigOp.OpType.SET));
            incremental(admin, second, false, "duplicate-name",
                    op("retention.ms", "1000", AlterConfigOp.OpType.SET),
                    op("retention.ms", "2000", AlterConfigOp.OpType.SET));
            System.out.println("second " + entry(describe(admin, second).get("retention.ms")));

            // Only some keys.
            Map<ConfigResource, Config> some = admin.describeConfigs(Collections.singletonList(resource)).all().get();
            System.out.println("count " + some.get(resource).entries().size());

            // The broker's own configs.
            String nodeId = Integer.toString(admin.describeCluster().controller().get().id());
            ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, nodeId);
            Config brokerConfig = describe(admin, broker);
            for (String name : Arrays.asList("node.id", "log.retention.hours", "num.partitions",
                    "auto.create.topics.enable", "message.max.bytes")) {
                ConfigEntry e = brokerConfig.get(name);
                System.out.println("broker " + (e == null ? name + " absent" : entry(e)));
            }
        }
    }

    static Config describe(Admin admin, ConfigResource resource) throws Exception {
        return admin.describeConfigs(Collections.singletonList(resource)).all().get().get(resource);
    }

    static void show(String label, Config config) {
        for (String name : SHOWN) {
            ConfigEntry e = config.get(name);
            System.out.println(label + " " + (e == null ? name + " absent" : entry(e)));
        }
    }

    static String entry(ConfigEntry e) {
        return e.name() + "=" + e.value() + " source=" + e.source() + " default=" + e.isDefault()
                + " readOnly=" + e.isReadOnly() + " sensitive=" + e.isSensitive() + " type=" + e.type();
    }

    static AlterConfigOp op(String name, String value, AlterConfigOp.OpType type) {
        return new AlterConfigOp(new ConfigEntry(name, value), type);
    }

    static void incremental(Admin admin, ConfigResource resource, boolean validateOnly, String label,
            AlterConfigOp... ops) throws Exception {
        Map<ConfigResource, Collection<AlterConfigOp>> request =
                Collections.singletonMap(resource, Arrays.asList(ops));
        try {
            admin.incrementalAlterConfigs(request, new AlterConfigsOptions().validateOnly(validateOnly)).all().get();
            System.out.println(label + " ok");
        } catch (ExecutionException e) {
            System.out.println(label + " " + e.getCause().getClass().getSimpleName());
            System.err.println(label + ": " + e.getCause().getMessage());
        }
    }

    // AlterConfigs (api key 33, the whole set of a resource's configs at
    // once): Admin no longer has it, so it goes on its own connection, built
    // and parsed with the clients' request classes, at version 2.
    static void alterLegacy(String bootstrap, ConfigResource resource, Map<String, String> configs,
            boolean validateOnly, String label) throws Exception {
        List<AlterConfigsRequest.ConfigEntry> entries = new ArrayList<>();
        for (Map.Entry<String, String> e : configs.entrySet()) {
            entries.add(new AlterConfigsRequest.ConfigEntry(e.getKey(), e.getValue()));
        }
        AlterConfigsRequest request = new AlterConfigsRequest.Builder(
                Collections.singletonMap(resource, new AlterConfigsRequest.Config(entries)), validateOnly)
                .build((short) 2);
        RequestHeader header = new RequestHeader(ApiKeys.ALTER_CONFIGS, (short) 2, "java-raw", 7);
        ByteBuffer frame = request.serializeWithHeader(header);
        int colon = bootstrap.lastIndexOf(':');
        try (Socket socket = new Socket(bootstrap.substring(0, colon), Integer.parseInt(bootstrap.substring(colon + 1)))) {
            socket.setSoTimeout(30_000);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            byte[] bytes = new byte[frame.remaining()];
            frame.get(bytes);
            out.writeInt(bytes.length);
            out.write(bytes);
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] answer = new byte[in.readInt()];
            in.readFully(answer);
            AlterConfigsResponse response =
                    (AlterConfigsResponse) AbstractResponse.parseResponse(ByteBuffer.wrap(answer), header);
            ApiError error = response.errors().get(resource);
            System.out.println(label + " " + (error == null ? "missing" : error.error().name()));
            if (error != null && error.message() != null) {
                System.err.println(label + ": " + error.message());
            }
        }
    }

    static List<String> names(Collection<TopicPartition> partitions) {
        List<String> out = new ArrayList<>();
        for (TopicPartition tp : partitions) {
            out.add(tp.topic() + "-" + tp.partition());
        }
        return out;
    }

    static TreeMap<String, TopicPartition> byName(Collection<TopicPartition> partitions) {
        TreeMap<String, TopicPartition> out = new TreeMap<>();
        for (TopicPartition tp : partitions) {
            out.put(tp.topic() + "-" + tp.partition(), tp);
        }
        return out;
    }
}
