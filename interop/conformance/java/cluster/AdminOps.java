// Admin writes through a KRaft broker with Kafka's own AdminClient, so that
// the broker forwards them to the controller (KIP-590): interop/tests/cluster_envelope.rs
// runs it and then reads what the relay between broker and controller saw.
//
// usage: AdminOps BOOTSTRAP SUFFIX
//
// Its client id is kw-envelope-admin-SUFFIX. Everything it creates is named
// kw-envelope-*-SUFFIX and is removed again
// (topics deleted, quota removed, ACL deleted, SCRAM credential deleted, the
// broker config reset), so it can run against a shared cluster. One line per
// step on stdout: "ok STEP [detail]"; any failure ends it with an exception.

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.FeatureMetadata;
import org.apache.kafka.clients.admin.FeatureUpdate;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UpdateFeaturesOptions;
import org.apache.kafka.clients.admin.UserScramCredentialDeletion;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;

public class AdminOps {
    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: AdminOps BOOTSTRAP SUFFIX");
            System.exit(2);
        }
        String suffix = args[1];
        String topicA = "kw-envelope-a-" + suffix;
        String topicB = "kw-envelope-b-" + suffix;
        String user = "kw-envelope-user-" + suffix;
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        // The client id the test finds this run's requests by, inside the Envelopes.
        props.put(AdminClientConfig.CLIENT_ID_CONFIG, "kw-envelope-admin-" + suffix);
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "60000");
        try (Admin admin = Admin.create(props)) {
            // CreateTopics (19).
            admin.createTopics(List.of(new NewTopic(topicA, 1, (short) 1), new NewTopic(topicB, 1, (short) 1)))
                .all().get();
            System.out.println("ok createTopics " + topicA + " " + topicB);

            // CreatePartitions (37).
            admin.createPartitions(Map.of(topicA, NewPartitions.increaseTo(2))).all().get();
            System.out.println("ok createPartitions " + topicA + " 2");

            // IncrementalAlterConfigs (44): a topic config, and a broker config
            // set to its default value then deleted again.
            ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, topicA);
            ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, brokerId(admin));
            admin.incrementalAlterConfigs(Map.of(
                topic, List.of(new AlterConfigOp(new ConfigEntry("retention.ms", "3600000"), AlterConfigOp.OpType.SET)),
                broker, List.of(new AlterConfigOp(new ConfigEntry("log.cleaner.threads", "1"), AlterConfigOp.OpType.SET))
            )).all().get();
            System.out.println("ok incrementalAlterConfigs set topic " + topicA + " broker " + broker.name());
            admin.incrementalAlterConfigs(Map.of(
                broker, List.<AlterConfigOp>of(new AlterConfigOp(new ConfigEntry("log.cleaner.threads", ""), AlterConfigOp.OpType.DELETE))
            )).all().get();
            System.out.println("ok incrementalAlterConfigs delete broker " + broker.name());

            // AlterClientQuotas (49): set, then remove.
            ClientQuotaEntity entity = new ClientQuotaEntity(Map.of(ClientQuotaEntity.USER, user));
            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(entity,
                List.of(new ClientQuotaAlteration.Op("producer_byte_rate", 1048576.0))))).all().get();
            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(entity,
                List.of(new ClientQuotaAlteration.Op("producer_byte_rate", null))))).all().get();
            System.out.println("ok alterClientQuotas " + user);

            // CreateAcls (30), DeleteAcls (31).
            AclBinding acl = new AclBinding(new ResourcePattern(ResourceType.TOPIC, topicA, PatternType.LITERAL),
                new AccessControlEntry("User:" + user, "*", AclOperation.READ, AclPermissionType.ALLOW));
            admin.createAcls(List.of(acl)).all().get();
            AclBindingFilter filter = new AclBindingFilter(
                new ResourcePatternFilter(ResourceType.TOPIC, topicA, PatternType.LITERAL),
                new AccessControlEntryFilter("User:" + user, null, AclOperation.ANY, AclPermissionType.ANY));
            Collection<AclBinding> deleted = admin.deleteAcls(List.of(filter)).all().get();
            if (deleted.size() != 1) {
                throw new IllegalStateException("deleteAcls removed " + deleted.size() + " ACLs, expected 1");
            }
            System.out.println("ok createAcls deleteAcls " + user);

            // AlterUserScramCredentials (51): upsert, then delete.
            admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(user,
                new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096), "kw-secret"))).all().get();
            admin.alterUserScramCredentials(List.of(new UserScramCredentialDeletion(user,
                ScramMechanism.SCRAM_SHA_256))).all().get();
            System.out.println("ok alterUserScramCredentials " + user);

            // UpdateFeatures (57): a finalized feature "upgraded" to the level
            // it has, which changes nothing.
            FeatureMetadata features = admin.describeFeatures().featureMetadata().get();
            FinalizedVersionRange mv = features.finalizedFeatures().get("metadata.version");
            if (mv == null) {
                throw new IllegalStateException("metadata.version is not finalized: " + features);
            }
            short level = mv.maxVersionLevel();
            admin.updateFeatures(Map.of("metadata.version", new FeatureUpdate(level, FeatureUpdate.UpgradeType.UPGRADE)),
                new UpdateFeaturesOptions()).all().get();
            System.out.println("ok updateFeatures metadata.version " + level);

            // DeleteTopics (20).
            admin.deleteTopics(List.of(topicA, topicB)).all().get();
            System.out.println("ok deleteTopics " + topicA + " " + topicB);
        }
    }

    private static String brokerId(Admin admin) throws Exception {
        return admin.describeCluster().nodes().get().iterator().next().idString();
    }
}
