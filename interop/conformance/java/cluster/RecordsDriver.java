// Kafka's own Java producer and consumer, for interop/tests/cluster_records.rs
// (record batches both ways between kwire and Kafka).
//
//   RecordsDriver write BOOTSTRAP TOPIC
//       Partition 0 of TOPIC (which must exist) gets, in this order:
//       - for each codec of none, gzip, snappy, lz4, zstd: one batch of three
//         records from a new idempotent producer with compression.type=codec;
//         record i: key "<codec>-k<i>", value "<codec>-value-<i>-" + 64 'x',
//         headers codec=<codec>, index=<i>, nothing=null;
//       - one transaction that commits, then one that aborts, from one
//         transactional producer (compression.type=gzip): two records each,
//         key "<commit|abort>-k<i>", value "<commit|abort>-value-<i>",
//         header txn=<commit|abort>.
//       Prints one line per record acknowledged: "sent OFFSET KEY".
//
//   RecordsDriver read BOOTSTRAP TOPIC COUNT
//       Reads partition 0 of TOPIC from the beginning (read_uncommitted,
//       CRCs checked) until COUNT records came, or fails after 30 s. Prints
//       one line per record:
//       "record OFFSET TIMESTAMP KEY VALUE HEADERS", KEY and VALUE in hex or
//       "null", HEADERS as key=hexvalue (or key=null) joined by "," or "-".

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.nio.charset.StandardCharsets;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

public class RecordsDriver {
    static final String[] CODECS = {"none", "gzip", "snappy", "lz4", "zstd"};

    public static void main(String[] args) throws Exception {
        if (args.length >= 3 && args[0].equals("write")) {
            write(args[1], args[2]);
        } else if (args.length >= 4 && args[0].equals("read")) {
            read(args[1], args[2], Integer.parseInt(args[3]));
        } else {
            System.err.println("usage: RecordsDriver write BOOTSTRAP TOPIC | read BOOTSTRAP TOPIC COUNT");
            System.exit(2);
        }
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static Properties producerProps(String bootstrap, String codec) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("key.serializer", ByteArraySerializer.class.getName());
        p.put("value.serializer", ByteArraySerializer.class.getName());
        p.put("compression.type", codec);
        p.put("enable.idempotence", "true");
        p.put("acks", "all");
        // One batch per flush: nothing is sent before flush() or commit.
        p.put("linger.ms", "60000");
        p.put("batch.size", "1048576");
        p.put("max.in.flight.requests.per.connection", "1");
        return p;
    }

    static void send(KafkaProducer<byte[], byte[]> producer, List<java.util.concurrent.Future<RecordMetadata>> acks,
                     String topic, String key, String value, RecordHeaders headers) {
        acks.add(producer.send(new ProducerRecord<>(topic, 0, null, utf8(key), utf8(value), headers)));
    }

    static void report(List<java.util.concurrent.Future<RecordMetadata>> acks, List<String> keys) throws Exception {
        for (int i = 0; i < acks.size(); i++) {
            System.out.println("sent " + acks.get(i).get().offset() + " " + keys.get(i));
        }
    }

    static void write(String bootstrap, String topic) throws Exception {
        for (String codec : CODECS) {
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProps(bootstrap, codec))) {
                List<java.util.concurrent.Future<RecordMetadata>> acks = new ArrayList<>();
                List<String> keys = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    RecordHeaders headers = new RecordHeaders();
                    headers.add("codec", utf8(codec));
                    headers.add("index", utf8(Integer.toString(i)));
                    headers.add("nothing", null);
                    String key = codec + "-k" + i;
                    send(producer, acks, topic, key, codec + "-value-" + i + "-" + "x".repeat(64), headers);
                    keys.add(key);
                }
                producer.flush();
                report(acks, keys);
            }
        }
        Properties p = producerProps(bootstrap, "gzip");
        p.put("transactional.id", "kwire-records-" + topic);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            producer.initTransactions();
            for (String outcome : new String[] {"commit", "abort"}) {
                producer.beginTransaction();
                List<java.util.concurrent.Future<RecordMetadata>> acks = new ArrayList<>();
                List<String> keys = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    RecordHeaders headers = new RecordHeaders();
                    headers.add("txn", utf8(outcome));
                    String key = outcome + "-k" + i;
                    send(producer, acks, topic, key, outcome + "-value-" + i, headers);
                    keys.add(key);
                }
                producer.flush();
                report(acks, keys);
                if (outcome.equals("commit")) {
                    producer.commitTransaction();
                } else {
                    producer.abortTransaction();
                }
                System.out.println("ended " + outcome);
            }
        }
        System.out.println("done");
    }

    static String hex(byte[] bytes) {
        if (bytes == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder();
        for (byte b : bytes) {
            sb.append(String.format("%02x", b & 0xff));
        }
        return sb.length() == 0 ? "empty" : sb.toString();
    }

    static void read(String bootstrap, String topic, int count) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("key.deserializer", ByteArrayDeserializer.class.getName());
        p.put("value.deserializer", ByteArrayDeserializer.class.getName());
        p.put("enable.auto.commit", "false");
        p.put("isolation.level", "read_uncommitted");
        p.put("check.crcs", "true");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p)) {
            TopicPartition tp = new TopicPartition(topic, 0);
            consumer.assign(Collections.singletonList(tp));
            consumer.seekToBeginning(Collections.singletonList(tp));
            long deadline = System.currentTimeMillis() + 30_000;
            int seen = 0;
            while (seen < count) {
                if (System.currentTimeMillis() > deadline) {
                    System.err.println("read " + seen + " of " + count + " records in 30 s");
                    System.exit(1);
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    List<String> headers = new ArrayList<>();
                    for (Header h : r.headers()) {
                        headers.add(h.key() + "=" + hex(h.value()));
                    }
                    System.out.println("record " + r.offset() + " " + r.timestamp() + " " + hex(r.key()) + " "
                        + hex(r.value()) + " " + (headers.isEmpty() ? "-" : String.join(",", headers)));
                    seen++;
                }
            }
        }
        System.out.println("done");
    }
}
