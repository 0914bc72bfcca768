#!/usr/bin/env python3
"""Writes schemas-internal/FAMILY/*.json from one Apache Kafka release's
schema families (as interop/scripts/kafka-release.sh extracts them into
.cache/kafka/VERSION/schemas/FAMILY): every comment and every `about` text
removed, and each record given a one-sentence description of our own as a
leading comment (ABOUTS below; a schema without one there is an error). Key order and every other
value are kept, so that interop/tests/internal_schemas.rs can compare each file
with the release's, about texts and comments aside.

Usage: python3 interop/scripts/internal-schemas.py [VERSION]   (default 4.4.0)
"""
import json
import os
import re
import sys

FAMILIES = ["metadata", "group-coordinator", "share-coordinator", "transaction-coordinator", "raft", "storage"]

# One sentence per schema, in our own words.
ABOUTS = {
    # metadata: the records of the KRaft metadata log (__cluster_metadata).
    "AbortTransactionRecord": "Marks that a metadata transaction of the controller was aborted.",
    "AccessControlEntryRecord": "Adds one ACL entry, by its id.",
    "BeginTransactionRecord": "Marks the start of a metadata transaction of the controller.",
    "BrokerRegistrationChangeRecord": "Changes fields of an existing broker registration (fencing, controlled shutdown, log dirs).",
    "ClearElrRecord": "Clears the eligible leader replicas of one topic or of every topic.",
    "ClientQuotaRecord": "Sets or removes one client quota value of a quota entity.",
    "ConfigRecord": "Sets or removes one configuration value of a resource.",
    "DelegationTokenRecord": "Adds or renews a delegation token.",
    "EndTransactionRecord": "Marks the end of a metadata transaction of the controller.",
    "FeatureLevelRecord": "Sets the finalized level of one feature.",
    "FenceBrokerRecord": "Fences a broker (obsolete form; later versions use BrokerRegistrationChangeRecord).",
    "NoOpRecord": "Carries nothing; the active controller writes it to advance the log.",
    "PartitionChangeRecord": "Changes the leader, replicas or ISR of one partition.",
    "PartitionRecord": "Creates one partition of a topic, with its replicas and leader.",
    "ProducerIdsRecord": "Allocates a block of producer ids to a broker.",
    "RegisterBrokerRecord": "Registers a broker with its listeners, features and rack.",
    "RegisterControllerRecord": "Registers a controller with its endpoints and features.",
    "RemoveAccessControlEntryRecord": "Removes one ACL entry, by its id.",
    "RemoveDelegationTokenRecord": "Removes a delegation token.",
    "RemoveTopicRecord": "Deletes a topic, by its id.",
    "RemoveUserScramCredentialRecord": "Removes the SCRAM credential of one user and mechanism.",
    "TopicRecord": "Creates a topic: its name and id.",
    "UnfenceBrokerRecord": "Unfences a broker (obsolete form; later versions use BrokerRegistrationChangeRecord).",
    "UnregisterBrokerRecord": "Removes a broker registration.",
    "UnregisterControllerRecord": "Removes a controller registration.",
    "UserScramCredentialRecord": "Sets the SCRAM credential of one user and mechanism.",
    "ZkMigrationStateRecord": "Recorded the state of a ZooKeeper to KRaft migration.",
    # group-coordinator: the keys and values of __consumer_offsets.
    "ConsumerGroupCurrentMemberAssignmentKey": "Key of the assignment a member of a consumer group (KIP-848) currently holds.",
    "ConsumerGroupCurrentMemberAssignmentValue": "The partitions a member of a consumer group currently owns, and its epochs.",
    "ConsumerGroupMemberMetadataKey": "Key of the metadata of one member of a consumer group.",
    "ConsumerGroupMemberMetadataValue": "What one member of a consumer group subscribes to, and where it runs.",
    "ConsumerGroupMetadataKey": "Key of the metadata of a consumer group.",
    "ConsumerGroupMetadataValue": "The epoch and metadata hash of a consumer group.",
    "ConsumerGroupPartitionMetadataKey": "Key of the topic metadata a consumer group subscribes to.",
    "ConsumerGroupPartitionMetadataValue": "The topics a consumer group's subscriptions resolve to, with their partition counts.",
    "ConsumerGroupRegularExpressionKey": "Key of one subscription regular expression of a consumer group.",
    "ConsumerGroupRegularExpressionValue": "The topics one subscription regular expression of a consumer group matched.",
    "ConsumerGroupTargetAssignmentMemberKey": "Key of the target assignment of one member of a consumer group.",
    "ConsumerGroupTargetAssignmentMemberValue": "The partitions one member of a consumer group is to own.",
    "ConsumerGroupTargetAssignmentMetadataKey": "Key of the target assignment metadata of a consumer group.",
    "ConsumerGroupTargetAssignmentMetadataValue": "The epoch of a consumer group's target assignment.",
    "GroupMetadataKey": "Key of the metadata of a classic group.",
    "GroupMetadataValue": "The protocol, generation, leader and members of a classic group.",
    "LegacyOffsetCommitKey": "Key of an offset commit in the oldest key format (record type 0).",
    "LegacyOffsetCommitValue": "A committed offset in the oldest value format.",
    "OffsetCommitKey": "Key of a committed offset: group, topic and partition.",
    "OffsetCommitValue": "A committed offset with its metadata and timestamps.",
    "ShareGroupCurrentMemberAssignmentKey": "Key of the assignment a member of a share group currently holds.",
    "ShareGroupCurrentMemberAssignmentValue": "The partitions a member of a share group currently owns, and its epochs.",
    "ShareGroupMemberMetadataKey": "Key of the metadata of one member of a share group.",
    "ShareGroupMemberMetadataValue": "What one member of a share group subscribes to, and where it runs.",
    "ShareGroupMetadataKey": "Key of the metadata of a share group.",
    "ShareGroupMetadataValue": "The epoch and metadata hash of a share group.",
    "ShareGroupStatePartitionMetadataKey": "Key of the share-partition state a share group has initialized.",
    "ShareGroupStatePartitionMetadataValue": "The topic partitions whose share state a share group has initialized, is initializing or is deleting.",
    "ShareGroupTargetAssignmentMemberKey": "Key of the target assignment of one member of a share group.",
    "ShareGroupTargetAssignmentMemberValue": "The partitions one member of a share group is to own.",
    "ShareGroupTargetAssignmentMetadataKey": "Key of the target assignment metadata of a share group.",
    "ShareGroupTargetAssignmentMetadataValue": "The epoch of a share group's target assignment.",
    "StreamsGroupCurrentMemberAssignmentKey": "Key of the tasks a member of a streams group currently holds.",
    "StreamsGroupCurrentMemberAssignmentValue": "The active, standby and warm-up tasks a member of a streams group currently owns.",
    "StreamsGroupMemberMetadataKey": "Key of the metadata of one member of a streams group.",
    "StreamsGroupMemberMetadataValue": "Where one member of a streams group runs and what it reports.",
    "StreamsGroupMetadataKey": "Key of the metadata of a streams group.",
    "StreamsGroupMetadataValue": "The epoch and metadata hash of a streams group.",
    "StreamsGroupTargetAssignmentMemberKey": "Key of the target assignment of one member of a streams group.",
    "StreamsGroupTargetAssignmentMemberValue": "The tasks one member of a streams group is to own.",
    "StreamsGroupTargetAssignmentMetadataKey": "Key of the target assignment metadata of a streams group.",
    "StreamsGroupTargetAssignmentMetadataValue": "The epoch of a streams group's target assignment.",
    "StreamsGroupTopologyKey": "Key of the topology of a streams group.",
    "StreamsGroupTopologyValue": "The subtopologies of a streams group and the topics they read and write.",
    # share-coordinator: the keys and values of __share_group_state.
    "ShareSnapshotKey": "Key of a full snapshot of one share partition's state.",
    "ShareSnapshotValue": "The whole state of one share partition: start offset, epochs and state batches.",
    "ShareUpdateKey": "Key of an incremental update of one share partition's state.",
    "ShareUpdateValue": "Changes to one share partition's state since its last snapshot.",
    # transaction-coordinator: the keys and values of __transaction_state.
    "TransactionLogKey": "Key of a transaction's state: its transactional id.",
    "TransactionLogValue": "The producer, state, timeout and partitions of one transaction.",
    # raft: the quorum-state file of a KRaft node.
    "QuorumStateData": "The election state a KRaft node keeps in its quorum-state file.",
    # storage: producer snapshots and remote log metadata (KIP-405).
    "ProducerSnapshot": "The producer state a partition keeps in its .snapshot files.",
    "RemoteLogSegmentMetadataRecord": "Describes a log segment copied to remote storage.",
    "RemoteLogSegmentMetadataSnapshotRecord": "A remote log segment's metadata as kept in a snapshot of the remote log metadata.",
    "RemoteLogSegmentMetadataUpdateRecord": "Changes the state of a log segment in remote storage.",
    "RemotePartitionDeleteMetadataRecord": "Changes the deletion state of a partition's remote log.",
}


def blank_comments(text):
    """Removes // and /* */ comments outside strings."""
    out, i, n, in_str = [], 0, len(text), False
    while i < n:
        c = text[i]
        if in_str:
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 2
                continue
            if c == '"':
                in_str = False
            i += 1
        elif c == '"':
            in_str = True
            out.append(c)
            i += 1
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def strip_about(value):
    if isinstance(value, dict):
        return {k: strip_about(v) for k, v in value.items() if k != "about"}
    if isinstance(value, list):
        return [strip_about(v) for v in value]
    return value


def render(value, indent=0):
    """JSON in the release files' layout: one field object a line, nested
    field lists indented."""
    pad = "  " * indent
    if isinstance(value, dict):
        if "fields" not in value and indent > 0:
            return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
        items = []
        for k, v in value.items():
            items.append(pad + "  " + json.dumps(k) + ": " + render(v, indent + 1))
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list) and value and any(isinstance(v, dict) for v in value):
        items = [pad + "  " + render(v, indent + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def main():
    version = sys.argv[1] if len(sys.argv) > 1 else "4.4.0"
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    cache = os.environ.get("KWIRE_RELEASES") or os.path.join(root, ".cache/kafka")
    cache = os.path.join(root, cache)
    missing = []
    for family in FAMILIES:
        src = os.path.join(cache, version, "schemas", family)
        dst = os.path.join(root, "schemas-internal", family)
        os.makedirs(dst, exist_ok=True)
        for old in os.listdir(dst):
            if old.endswith(".json"):
                os.remove(os.path.join(dst, old))
        for name in sorted(os.listdir(src)):
            if not name.endswith(".json"):
                continue
            with open(os.path.join(src, name), encoding="utf-8") as f:
                spec = strip_about(json.loads(blank_comments(f.read())))
            about = ABOUTS.get(spec.get("name"))
            if about is None:
                missing.append(f"{family}/{name}")
                continue
            # Kafka's schema language has no `about` for a whole schema: ours
            # is a comment line, which the compiler skips.
            with open(os.path.join(dst, name), "w", encoding="utf-8") as f:
                f.write("// " + about + "\n" + render(spec) + "\n")
    if missing:
        sys.exit("no about text in ABOUTS for: " + ", ".join(missing))


if __name__ == "__main__":
    main()
