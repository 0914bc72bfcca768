// Kafka's own clients making a real cluster write its internal topics, for
// interop/tests/cluster_internal_records.rs: kwire then reads what the
// coordinators wrote to __consumer_offsets, __transaction_state and
// __share_group_state.
//
//   InternalTopicsDriver run BOOTSTRAP TOPIC CLASSIC_GROUP CONSUMER_GROUP SHARE_GROUP TXN_ID
//       In this order, every name given by the caller (unique per run):
//       1. creates TOPIC (2 partitions, replication factor 1; it must not
//          exist) and produces 3 records to each partition: key "k<P>-<I>",
//          value "v<P>-<I>"; prints "topic TOPIC TOPIC_ID";
//       2. a KafkaConsumer of group CLASSIC_GROUP (group.protocol=classic),
//          then one of CONSUMER_GROUP (group.protocol=consumer, KIP-848), each
//          reads the 6 records and commits with commitSync, offset = last + 1
//          and metadata "kwire <GROUP>"; prints
//          "committed GROUP PARTITION OFFSET" per partition;
//       3. sets the group config share.auto.offset.reset=earliest of
//          SHARE_GROUP (Admin incrementalAlterConfigs), then a
//          KafkaShareConsumer of SHARE_GROUP (explicit acknowledgement)
//          acknowledges (ACCEPT) each record it gets and calls commitSync,
//          until all 6 are acknowledged; prints "acknowledged GROUP COUNT";
//       4. a transactional producer (transactional.id TXN_ID) commits a
//          transaction of two records to partition 0 and aborts another of
//          two; prints "transaction TXN_ID committed" and
//          "transaction TXN_ID aborted".
//       Any failure (or 60 s without the records) ends with an exception.

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

public class InternalTopicsDriver {
    static final int PARTITIONS = 2;
    static final int PER_PARTITION = 3;
    static final long DEADLINE_MS = 60_000;

    public static void main(String[] args) throws Exception {
        if (args.length == 7 && args[0].equals("run")) {
            run(args[1], args[2], args[3], args[4], args[5], args[6]);
        } else {
            System.err.println("usage: InternalTopicsDriver run BOOTSTRAP TOPIC CLASSIC_GROUP CONSUMER_GROUP SHARE_GROUP TXN_ID");
            System.exit(2);
        }
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static void run(String bootstrap, String topic, String classicGroup, String consumerGroup, String shareGroup,
                    String txnId) throws Exception {
        Properties adminProps = new Properties();
        adminProps.put("bootstrap.servers", bootstrap);
        try (Admin admin = Admin.create(adminProps)) {
            NewTopic newTopic = new NewTopic(topic, PARTITIONS, (short) 1);
            var created = admin.createTopics(List.of(newTopic));
            created.all().get();
            System.out.println("topic " + topic + " " + created.topicId(topic).get());
            System.out.flush();

            produce(bootstrap, topic);
            consume(bootstrap, topic, classicGroup, "classic");
            consume(bootstrap, topic, consumerGroup, "consumer");

            ConfigResource group = new ConfigResource(ConfigResource.Type.GROUP, shareGroup);
            AlterConfigOp earliest = new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"),
                AlterConfigOp.OpType.SET);
            admin.incrementalAlterConfigs(Map.of(group, List.of(earliest))).all().get();
            share(bootstrap, topic, shareGroup);
        }
        transactions(bootstrap, topic, txnId);
    }

    static Properties producerProps(String bootstrap) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("key.serializer", ByteArraySerializer.class.getName());
        p.put("value.serializer", ByteArraySerializer.class.getName());
        p.put("acks", "all");
        return p;
    }

    static void produce(String bootstrap, String topic) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProps(bootstrap))) {
            List<java.util.concurrent.Future<?>> acks = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                for (int i = 0; i < PER_PARTITION; i++) {
                    acks.add(producer.send(new ProducerRecord<>(topic, p, utf8("k" + p + "-" + i), utf8("v" + p + "-" + i))));
                }
            }
            for (var ack : acks) {
                ack.get();
            }
        }
    }

    static Properties consumerProps(String bootstrap, String group) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("group.id", group);
        p.put("key.deserializer", ByteArrayDeserializer.class.getName());
        p.put("value.deserializer", ByteArrayDeserializer.class.getName());
        return p;
    }

    static void consume(String bootstrap, String topic, String group, String protocol) throws Exception {
        Properties p = consumerProps(bootstrap, group);
        p.put("group.protocol", protocol);
        p.put("auto.offset.reset", "earliest");
        p.put("enable.auto.commit", "false");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p)) {
            consumer.subscribe(List.of(topic));
            Map<TopicPartition, Long> next = new TreeMap<>((a, b) -> Integer.compare(a.partition(), b.partition()));
            int count = 0;
            long deadline = System.currentTimeMillis() + DEADLINE_MS;
            while (count < PARTITIONS * PER_PARTITION) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException(group + ": " + count + " records within 60 s");
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    next.put(new TopicPartition(r.topic(), r.partition()), r.offset() + 1);
                    count++;
                }
            }
            Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
            for (var e : next.entrySet()) {
                offsets.put(e.getKey(), new OffsetAndMetadata(e.getValue(), "kwire " + group));
            }
            consumer.commitSync(offsets);
            for (var e : next.entrySet()) {
                System.out.println("committed " + group + " " + e.getKey().partition() + " " + e.getValue());
            }
            System.out.flush();
        }
    }

    static void share(String bootstrap, String topic, String group) throws Exception {
        Properties p = consumerProps(bootstrap, group);
        p.put("share.acknowledgement.mode", "explicit");
        try (KafkaShareConsumer<byte[], byte[]> consumer = new KafkaShareConsumer<>(p)) {
            consumer.subscribe(List.of(topic));
            int count = 0;
            long deadline = System.currentTimeMillis() + DEADLINE_MS;
            while (count < PARTITIONS * PER_PARTITION) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException(group + ": " + count + " records acknowledged within 60 s");
                }
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(500));
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    consumer.acknowledge(r, AcknowledgeType.ACCEPT);
                }
                if (!records.isEmpty()) {
                    Map<TopicIdPartition, Optional<KafkaException>> result = consumer.commitSync();
                    for (var e : result.entrySet()) {
                        if (e.getValue().isPresent()) {
                            throw new IllegalStateException(group + ": acknowledging " + e.getKey() + " failed",
                                e.getValue().get());
                        }
                    }
                    count += records.count();
                }
            }
            System.out.println("acknowledged " + group + " " + count);
            System.out.flush();
        }
    }

    static void transactions(String bootstrap, String topic, String txnId) throws Exception {
        Properties p = producerProps(bootstrap);
        p.put("transactional.id", txnId);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            producer.initTransactions();
            for (String outcome : new String[] {"commit", "abort"}) {
                producer.beginTransaction();
                for (int i = 0; i < 2; i++) {
                    producer.send(new ProducerRecord<>(topic, 0, utf8(outcome + "-k" + i), utf8(outcome + "-v" + i)));
                }
                if (outcome.equals("commit")) {
                    producer.commitTransaction();
                    System.out.println("transaction " + txnId + " committed");
                } else {
                    producer.flush();
                    producer.abortTransaction();
                    System.out.println("transaction " + txnId + " aborted");
                }
                System.out.flush();
            }
        }
    }
}
