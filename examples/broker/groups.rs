//! The group coordinator: the classic consumer-group protocol (JoinGroup,
//! SyncGroup, Heartbeat, LeaveGroup), committed offsets, FindCoordinator,
//! DescribeGroups and ListGroups.
//!
//! ```text
//!  Empty ──JoinGroup──▶ PreparingRebalance ──all members joined──▶ CompletingRebalance ──leader's SyncGroup──▶ Stable
//!    ▲                    ▲  (a new group waits --group-initial-delay-ms;               │
//!    │                    │   members that do not rejoin within the rebalance timeout   │
//!    │                    │   are dropped)                                              │
//!    └── last member ─────┴──────────── JoinGroup, LeaveGroup, session expiry ─────────┘
//! ```
//!
//! Members learn about a rebalance from Heartbeat (REBALANCE_IN_PROGRESS)
//! and rejoin. JoinGroup and a follower's SyncGroup wait (on a oneshot
//! channel) until the rebalance step completes; a timer task per rebalance
//! completes it when members are late.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use kwire::error_code::ErrorCode;
use kwire::messages::describe_groups_response::{DescribedGroup, DescribedGroupMember};
use kwire::messages::find_coordinator_response::Coordinator as CoordinatorEntry;
use kwire::messages::join_group_response::JoinGroupResponseMember;
use kwire::messages::leave_group_response::MemberResponse;
use kwire::messages::list_groups_response::ListedGroup;
use kwire::messages::offset_commit_response::{OffsetCommitResponsePartition, OffsetCommitResponseTopic};
use kwire::messages::offset_fetch_response::{
    OffsetFetchResponseGroup, OffsetFetchResponsePartition, OffsetFetchResponsePartitions, OffsetFetchResponseTopic,
    OffsetFetchResponseTopics,
};
use kwire::messages::{
    DescribeGroupsRequest, DescribeGroupsResponse, FindCoordinatorRequest, FindCoordinatorResponse, HeartbeatRequest,
    HeartbeatResponse, JoinGroupRequest, JoinGroupResponse, LeaveGroupRequest, LeaveGroupResponse, ListGroupsRequest,
    ListGroupsResponse, OffsetCommitRequest, OffsetCommitResponse, OffsetFetchRequest, OffsetFetchResponse,
    SyncGroupRequest, SyncGroupResponse,
};
use kwire::ByteString;
use kwire::Bytes;
use tokio::sync::oneshot;
use tokio::time::Instant;

use crate::state::{random_uuid, Cluster};

/// Bounds on a member's session timeout, ms (Kafka's defaults are 6 s to 30 min).
const SESSION_TIMEOUT_MS: std::ops::RangeInclusive<i32> = 1_000..=1_800_000;
/// The longest a rebalance may wait for members, whatever they ask.
const MAX_REBALANCE_TIMEOUT: Duration = Duration::from_secs(300);
/// Largest offset metadata string, bytes (Kafka's `offset.metadata.max.bytes`).
const MAX_METADATA: usize = 4096;

/// A group's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GroupState {
    Empty,
    PreparingRebalance,
    CompletingRebalance,
    Stable,
}

impl GroupState {
    fn name(self) -> &'static str {
        match self {
            GroupState::Empty => "Empty",
            GroupState::PreparingRebalance => "PreparingRebalance",
            GroupState::CompletingRebalance => "CompletingRebalance",
            GroupState::Stable => "Stable",
        }
    }
}

/// What a waiting JoinGroup gets.
#[derive(Debug, Clone)]
struct JoinResult {
    error: ErrorCode,
    generation: i32,
    protocol_type: Option<ByteString>,
    protocol: Option<ByteString>,
    leader: ByteString,
    member_id: ByteString,
    /// For the leader: every member's id, instance id and metadata.
    members: Vec<(ByteString, Option<ByteString>, Bytes)>,
}

impl JoinResult {
    fn error(error: ErrorCode) -> Self {
        Self {
            error,
            generation: -1,
            protocol_type: None,
            protocol: None,
            leader: ByteString::default(),
            member_id: ByteString::default(),
            members: Vec::new(),
        }
    }
}

/// What a waiting SyncGroup gets.
#[derive(Debug, Clone)]
struct SyncResult {
    error: ErrorCode,
    assignment: Bytes,
}

struct Member {
    group_instance_id: Option<ByteString>,
    client_id: ByteString,
    client_host: ByteString,
    session_timeout: Duration,
    rebalance_timeout: Duration,
    protocol_type: ByteString,
    /// (name, metadata), in the member's order of preference.
    protocols: Vec<(ByteString, Bytes)>,
    /// Order of first join, for picking a leader.
    joined: u64,
    join: Option<oneshot::Sender<JoinResult>>,
    sync: Option<oneshot::Sender<SyncResult>>,
    assignment: Bytes,
    last_seen: Instant,
}

struct Committed {
    offset: i64,
    leader_epoch: i32,
    metadata: Option<ByteString>,
}

struct Group {
    state: GroupState,
    generation: i32,
    protocol_type: Option<ByteString>,
    protocol: Option<ByteString>,
    leader: Option<ByteString>,
    members: BTreeMap<ByteString, Member>,
    /// Counts rebalances; a timer acts only on its own.
    rebalance: u64,
    /// The current rebalance completes no sooner than this, once every
    /// member has joined...
    ready_at: Instant,
    /// ...and no later than this, without the members that did not.
    force_at: Instant,
    next_join: u64,
    offsets: BTreeMap<(ByteString, i32), Committed>,
}

impl Group {
    fn new() -> Self {
        let now = Instant::now();
        Self {
            state: GroupState::Empty,
            generation: 0,
            protocol_type: None,
            protocol: None,
            leader: None,
            members: BTreeMap::new(),
            rebalance: 0,
            ready_at: now,
            force_at: now,
            next_join: 0,
            offsets: BTreeMap::new(),
        }
    }

    /// Enters PreparingRebalance; returns the timer to start.
    fn begin_rebalance(&mut self, now: Instant, delay: Duration) -> Timer {
        self.state = GroupState::PreparingRebalance;
        self.rebalance += 1;
        let longest = self.members.values().map(|m| m.rebalance_timeout).max().unwrap_or_default();
        self.ready_at = now + delay;
        self.force_at = now + delay.max(longest.min(MAX_REBALANCE_TIMEOUT));
        for member in self.members.values_mut() {
            if let Some(sync) = member.sync.take() {
                let _ = sync.send(SyncResult { error: ErrorCode::RebalanceInProgress, assignment: Bytes::new() });
            }
        }
        Timer { rebalance: self.rebalance, ready_at: self.ready_at, force_at: self.force_at }
    }

    /// Completes the rebalance if it is time.
    fn try_complete(&mut self, group_id: &str, now: Instant) {
        if self.state != GroupState::PreparingRebalance {
            return;
        }
        let all_joined = self.members.values().all(|m| m.join.is_some());
        if (now >= self.ready_at && all_joined) || now >= self.force_at {
            self.complete(group_id);
        }
    }

    /// Ends PreparingRebalance: a new generation with the members that
    /// joined, and every waiting JoinGroup answered.
    fn complete(&mut self, group_id: &str) {
        let late: Vec<ByteString> =
            self.members.iter().filter(|(_, m)| m.join.is_none()).map(|(id, _)| id.clone()).collect();
        for id in late {
            log!("group {group_id}: member {id} did not rejoin in time; removed");
            self.members.remove(&id);
        }
        self.generation += 1;
        if self.members.is_empty() {
            self.state = GroupState::Empty;
            self.protocol = None;
            self.leader = None;
            return;
        }
        let protocol = self.choose_protocol();
        let leader = match &self.leader {
            Some(leader) if self.members.contains_key(leader) => leader.clone(),
            _ => self.members.iter().min_by_key(|(_, m)| m.joined).map(|(id, _)| id.clone()).unwrap_or_default(),
        };
        self.leader = Some(leader.clone());
        self.protocol = protocol.clone();
        self.state = GroupState::CompletingRebalance;
        let name = protocol.clone().unwrap_or_default();
        let everyone: Vec<(ByteString, Option<ByteString>, Bytes)> = self
            .members
            .iter()
            .map(|(id, m)| (id.clone(), m.group_instance_id.clone(), metadata_for(m, &name)))
            .collect();
        log!(
            "group {group_id}: generation {} with {} member(s), protocol {name}, leader {leader}",
            self.generation,
            self.members.len()
        );
        for (id, member) in self.members.iter_mut() {
            member.assignment = Bytes::new();
            if let Some(join) = member.join.take() {
                let _ = join.send(JoinResult {
                    error: ErrorCode::None,
                    generation: self.generation,
                    protocol_type: self.protocol_type.clone(),
                    protocol: protocol.clone(),
                    leader: leader.clone(),
                    member_id: id.clone(),
                    members: if *id == leader { everyone.clone() } else { Vec::new() },
                });
            }
        }
    }

    /// The protocol every member supports that most members like best
    /// (ties: the leader's order).
    fn choose_protocol(&self) -> Option<ByteString> {
        let mut members = self.members.values();
        let first = members.next()?;
        let candidates: Vec<&ByteString> = first
            .protocols
            .iter()
            .map(|(name, _)| name)
            .filter(|name| self.members.values().all(|m| m.protocols.iter().any(|(n, _)| n == *name)))
            .collect();
        let votes = |name: &ByteString| {
            self.members
                .values()
                .filter(|m| m.protocols.iter().map(|(n, _)| n).find(|n| candidates.contains(n)) == Some(name))
                .count()
        };
        let mut best: Option<(&ByteString, usize)> = None;
        for name in &candidates {
            let v = votes(name);
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((name, v));
            }
        }
        best.map(|(name, _)| name.clone())
    }

    /// Removes members, then rebalances (or empties) the group.
    fn remove_members(&mut self, group_id: &str, ids: &[ByteString], now: Instant) -> Option<Timer> {
        for id in ids {
            if let Some(member) = self.members.remove(id) {
                if let Some(join) = member.join {
                    let _ = join.send(JoinResult::error(ErrorCode::UnknownMemberId));
                }
                if let Some(sync) = member.sync {
                    let _ = sync.send(SyncResult { error: ErrorCode::UnknownMemberId, assignment: Bytes::new() });
                }
            }
        }
        match self.state {
            GroupState::Empty => None,
            _ if self.members.is_empty() => {
                self.state = GroupState::Empty;
                self.generation += 1;
                self.protocol = None;
                self.leader = None;
                log!("group {group_id}: empty (generation {})", self.generation);
                None
            }
            GroupState::PreparingRebalance => {
                self.try_complete(group_id, now);
                None
            }
            GroupState::CompletingRebalance | GroupState::Stable => Some(self.begin_rebalance(now, Duration::ZERO)),
        }
    }
}

fn metadata_for(member: &Member, protocol: &str) -> Bytes {
    member.protocols.iter().find(|(n, _)| n == protocol).map(|(_, m)| m.clone()).unwrap_or_default()
}

/// A rebalance timer to start once the lock is released.
#[derive(Debug, Clone, Copy)]
struct Timer {
    rebalance: u64,
    ready_at: Instant,
    force_at: Instant,
}

/// The coordinator of every group.
pub struct Coordinator {
    groups: Mutex<HashMap<ByteString, Group>>,
    initial_delay: Duration,
    node_id: i32,
    host: ByteString,
    port: i32,
}

/// Who is asking, for member bookkeeping.
pub struct Client<'a> {
    /// The request header's client id.
    pub client_id: &'a str,
    /// The client's address, as Kafka shows it (`/127.0.0.1`).
    pub host: ByteString,
}

impl Coordinator {
    /// A coordinator at this node's address.
    pub fn new(initial_delay: Duration, node_id: i32, host: ByteString, port: u16) -> Self {
        Self { groups: Mutex::new(HashMap::new()), initial_delay, node_id, host, port: i32::from(port) }
    }

    fn groups(&self) -> MutexGuard<'_, HashMap<ByteString, Group>> {
        self.groups.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn start_timer(self: &Arc<Self>, group_id: ByteString, timer: Timer) {
        let this = Arc::clone(self);
        // Lives at most until `force_at`.
        tokio::spawn(async move {
            tokio::time::sleep_until(timer.ready_at).await;
            if !this.tick(&group_id, timer.rebalance) {
                return;
            }
            tokio::time::sleep_until(timer.force_at).await;
            this.tick(&group_id, timer.rebalance);
        });
    }

    /// Completes rebalance number `rebalance` of a group if it is time;
    /// true while it is still pending.
    fn tick(&self, group_id: &str, rebalance: u64) -> bool {
        let mut groups = self.groups();
        let Some(group) = groups.get_mut(group_id) else { return false };
        if group.rebalance != rebalance || group.state != GroupState::PreparingRebalance {
            return false;
        }
        group.try_complete(group_id, Instant::now());
        group.state == GroupState::PreparingRebalance
    }

    /// Answers FindCoordinator: this node, for every key.
    pub fn find_coordinator(&self, request: &FindCoordinatorRequest, version: i16) -> FindCoordinatorResponse {
        if version < 4 {
            FindCoordinatorResponse {
                node_id: self.node_id,
                host: self.host.clone(),
                port: self.port,
                ..Default::default()
            }
        } else {
            let coordinators = request
                .coordinator_keys
                .iter()
                .map(|key| CoordinatorEntry {
                    key: key.clone(),
                    node_id: self.node_id,
                    host: self.host.clone(),
                    port: self.port,
                    ..Default::default()
                })
                .collect();
            FindCoordinatorResponse { coordinators, ..Default::default() }
        }
    }

    /// Answers JoinGroup, once the rebalance it starts or joins completes.
    pub async fn join(
        self: &Arc<Self>,
        client: Client<'_>,
        request: &JoinGroupRequest,
        version: i16,
    ) -> JoinGroupResponse {
        let (answer, wait) = match self.start_join(client, request, version) {
            Ok(waiting) => waiting,
            Err(error) => return join_response(JoinResult::error(error), version),
        };
        let result = match tokio::time::timeout(wait, answer).await {
            Ok(Ok(result)) => result,
            _ => JoinResult::error(ErrorCode::RebalanceInProgress),
        };
        join_response(result, version)
    }

    fn start_join(
        self: &Arc<Self>,
        client: Client<'_>,
        request: &JoinGroupRequest,
        version: i16,
    ) -> Result<(oneshot::Receiver<JoinResult>, Duration), ErrorCode> {
        if request.group_id.is_empty() {
            return Err(ErrorCode::InvalidGroupId);
        }
        if !SESSION_TIMEOUT_MS.contains(&request.session_timeout_ms) {
            return Err(ErrorCode::InvalidSessionTimeout);
        }
        if request.protocol_type.is_empty() || request.protocols.is_empty() {
            return Err(ErrorCode::InconsistentGroupProtocol);
        }
        let now = Instant::now();
        let mut groups = self.groups();
        let group = groups.entry(request.group_id.clone()).or_insert_with(Group::new);
        if group.state != GroupState::Empty && group.protocol_type.as_deref() != Some(&*request.protocol_type) {
            return Err(ErrorCode::InconsistentGroupProtocol);
        }
        let supported_by_others = |name: &str| {
            group
                .members
                .iter()
                .filter(|(id, _)| **id != request.member_id)
                .all(|(_, m)| m.protocols.iter().any(|(n, _)| n == name))
        };
        if !request.protocols.iter().any(|p| supported_by_others(&p.name)) {
            return Err(ErrorCode::InconsistentGroupProtocol);
        }
        let member_id = if request.member_id.is_empty() {
            // A static member (KIP-345) takes its old place back.
            let returning = request.group_instance_id.as_ref().and_then(|instance| {
                group
                    .members
                    .iter()
                    .find(|(_, m)| m.group_instance_id.as_ref() == Some(instance))
                    .map(|(id, _)| id.clone())
            });
            returning.unwrap_or_else(|| format!("{}-{}", client.client_id, random_uuid()).into())
        } else if group.members.contains_key(&request.member_id) {
            request.member_id.clone()
        } else {
            return Err(ErrorCode::UnknownMemberId);
        };
        let session_timeout = Duration::from_millis(request.session_timeout_ms.unsigned_abs().into());
        let rebalance_timeout = if version >= 1 && request.rebalance_timeout_ms > 0 {
            Duration::from_millis(request.rebalance_timeout_ms.unsigned_abs().into())
        } else {
            session_timeout
        };
        let (tx, rx) = oneshot::channel();
        let joined = group.next_join;
        group.next_join += 1;
        let member = group.members.entry(member_id.clone()).or_insert_with(|| Member {
            group_instance_id: None,
            client_id: ByteString::default(),
            client_host: ByteString::default(),
            session_timeout,
            rebalance_timeout,
            protocol_type: ByteString::default(),
            protocols: Vec::new(),
            joined,
            join: None,
            sync: None,
            assignment: Bytes::new(),
            last_seen: now,
        });
        member.group_instance_id = request.group_instance_id.clone();
        member.client_id = client.client_id.to_string().into();
        member.client_host = client.host;
        member.session_timeout = session_timeout;
        member.rebalance_timeout = rebalance_timeout;
        member.protocol_type = request.protocol_type.clone();
        member.protocols = request.protocols.iter().map(|p| (p.name.clone(), p.metadata.clone())).collect();
        member.join = Some(tx);
        member.last_seen = now;
        let timer = match group.state {
            GroupState::Empty => {
                group.protocol_type = Some(request.protocol_type.clone());
                Some(group.begin_rebalance(now, self.initial_delay))
            }
            GroupState::Stable | GroupState::CompletingRebalance => Some(group.begin_rebalance(now, Duration::ZERO)),
            GroupState::PreparingRebalance => None,
        };
        group.try_complete(&request.group_id, now);
        let wait = group.force_at.saturating_duration_since(now) + Duration::from_secs(5);
        drop(groups);
        if let Some(timer) = timer {
            self.start_timer(request.group_id.clone(), timer);
        }
        Ok((rx, wait))
    }

    /// Answers SyncGroup: the leader's assignments are stored and handed
    /// out; a follower waits for them.
    pub async fn sync(&self, request: &SyncGroupRequest, version: i16) -> SyncGroupResponse {
        let (protocol_type, protocol, waiting) = {
            let mut groups = self.groups();
            match sync_step(&mut groups, request) {
                Ok(step) => step,
                Err(error) => {
                    return sync_response(SyncResult { error, assignment: Bytes::new() }, None, None, version)
                }
            }
        };
        let result = match waiting {
            SyncStep::Done(result) => result,
            SyncStep::Wait(answer, wait) => match tokio::time::timeout(wait, answer).await {
                Ok(Ok(result)) => result,
                _ => SyncResult { error: ErrorCode::RebalanceInProgress, assignment: Bytes::new() },
            },
        };
        sync_response(result, protocol_type, protocol, version)
    }

    /// Answers Heartbeat.
    pub fn heartbeat(&self, request: &HeartbeatRequest) -> HeartbeatResponse {
        let mut groups = self.groups();
        let error = match groups.get_mut(&request.group_id) {
            None => ErrorCode::UnknownMemberId,
            Some(group) => match group.members.get_mut(&request.member_id) {
                None => ErrorCode::UnknownMemberId,
                Some(member) => {
                    member.last_seen = Instant::now();
                    if group.state == GroupState::PreparingRebalance {
                        ErrorCode::RebalanceInProgress
                    } else if request.generation_id != group.generation {
                        ErrorCode::IllegalGeneration
                    } else {
                        ErrorCode::None
                    }
                }
            },
        };
        HeartbeatResponse { error_code: error.code(), ..Default::default() }
    }

    /// Answers LeaveGroup (one member before v3, a list from v3).
    pub fn leave(self: &Arc<Self>, request: &LeaveGroupRequest, version: i16) -> LeaveGroupResponse {
        let leaving: Vec<(ByteString, Option<ByteString>)> = if version >= 3 {
            request.members.iter().map(|m| (m.member_id.clone(), m.group_instance_id.clone())).collect()
        } else {
            vec![(request.member_id.clone(), None)]
        };
        let mut groups = self.groups();
        let now = Instant::now();
        let mut results = Vec::with_capacity(leaving.len());
        let mut timer = None;
        if let Some(group) = groups.get_mut(&request.group_id) {
            let mut gone = Vec::new();
            for (member_id, instance) in &leaving {
                // A static member may leave by instance id alone.
                let id = if member_id.is_empty() {
                    instance.as_ref().and_then(|i| {
                        group
                            .members
                            .iter()
                            .find(|(_, m)| m.group_instance_id.as_ref() == Some(i))
                            .map(|(id, _)| id.clone())
                    })
                } else {
                    group.members.contains_key(member_id).then(|| member_id.clone())
                };
                let error = match id {
                    Some(id) => {
                        log!("group {}: member {id} left", request.group_id);
                        gone.push(id);
                        ErrorCode::None
                    }
                    None => ErrorCode::UnknownMemberId,
                };
                results.push(MemberResponse {
                    member_id: member_id.clone(),
                    group_instance_id: instance.clone(),
                    error_code: error.code(),
                    ..Default::default()
                });
            }
            timer = group.remove_members(&request.group_id, &gone, now);
        } else {
            for (member_id, instance) in &leaving {
                results.push(MemberResponse {
                    member_id: member_id.clone(),
                    group_instance_id: instance.clone(),
                    error_code: ErrorCode::UnknownMemberId.code(),
                    ..Default::default()
                });
            }
        }
        drop(groups);
        if let Some(timer) = timer {
            self.start_timer(request.group_id.clone(), timer);
        }
        if version >= 3 {
            LeaveGroupResponse { members: results, ..Default::default() }
        } else {
            let error_code = results.first().map_or(0, |r| r.error_code);
            LeaveGroupResponse { error_code, ..Default::default() }
        }
    }

    /// Drops members whose session timed out without a heartbeat.
    pub fn expire_members(self: &Arc<Self>) {
        let now = Instant::now();
        let mut timers = Vec::new();
        {
            let mut groups = self.groups();
            for (group_id, group) in groups.iter_mut() {
                let expired: Vec<ByteString> = group
                    .members
                    .iter()
                    .filter(|(_, m)| m.join.is_none() && m.sync.is_none() && now > m.last_seen + m.session_timeout)
                    .map(|(id, _)| id.clone())
                    .collect();
                if expired.is_empty() {
                    continue;
                }
                for id in &expired {
                    log!("group {group_id}: member {id} session expired; removed");
                }
                if let Some(timer) = group.remove_members(group_id, &expired, now) {
                    timers.push((group_id.clone(), timer));
                }
            }
        }
        for (group_id, timer) in timers {
            self.start_timer(group_id, timer);
        }
    }

    /// Answers OffsetCommit.
    pub fn commit(&self, cluster: &Cluster, request: &OffsetCommitRequest) -> OffsetCommitResponse {
        let mut groups = self.groups();
        let group_error = if request.group_id.is_empty() {
            Some(ErrorCode::InvalidGroupId)
        } else {
            let group = groups.entry(request.group_id.clone()).or_insert_with(Group::new);
            let managed = request.generation_id_or_member_epoch >= 0 || !request.member_id.is_empty();
            if managed {
                match group.members.get_mut(&request.member_id) {
                    None => Some(ErrorCode::UnknownMemberId),
                    Some(_) if request.generation_id_or_member_epoch != group.generation => {
                        Some(ErrorCode::IllegalGeneration)
                    }
                    Some(_) if group.state == GroupState::PreparingRebalance => Some(ErrorCode::RebalanceInProgress),
                    Some(member) => {
                        member.last_seen = Instant::now();
                        None
                    }
                }
            } else if group.state != GroupState::Empty {
                // A commit without a member to a group that has members.
                Some(ErrorCode::IllegalGeneration)
            } else {
                None
            }
        };
        let topics = cluster.topics();
        let mut committed = Vec::new();
        let results = request
            .topics
            .iter()
            .map(|topic| OffsetCommitResponseTopic {
                name: topic.name.clone(),
                partitions: topic
                    .partitions
                    .iter()
                    .map(|p| {
                        let exists = topics.get(&topic.name).and_then(|t| t.partition(p.partition_index)).is_some();
                        let error = if let Some(error) = group_error {
                            error
                        } else if !exists {
                            ErrorCode::UnknownTopicOrPartition
                        } else if p.committed_metadata.as_ref().is_some_and(|m| m.len() > MAX_METADATA) {
                            ErrorCode::OffsetMetadataTooLarge
                        } else {
                            committed.push((
                                (topic.name.clone(), p.partition_index),
                                Committed {
                                    offset: p.committed_offset,
                                    leader_epoch: p.committed_leader_epoch,
                                    metadata: p.committed_metadata.clone(),
                                },
                            ));
                            ErrorCode::None
                        };
                        OffsetCommitResponsePartition {
                            partition_index: p.partition_index,
                            error_code: error.code(),
                            ..Default::default()
                        }
                    })
                    .collect(),
                ..Default::default()
            })
            .collect();
        drop(topics);
        if let Some(group) = groups.get_mut(&request.group_id) {
            for ((topic, partition), c) in committed {
                log!("group {}: committed {topic}-{partition} at offset {}", request.group_id, c.offset);
                group.offsets.insert((topic, partition), c);
            }
        }
        OffsetCommitResponse { topics: results, ..Default::default() }
    }

    /// Answers OffsetFetch: one group before v8, a list from v8. Offsets
    /// never committed are -1.
    pub fn fetch_offsets(&self, request: &OffsetFetchRequest, version: i16) -> OffsetFetchResponse {
        let groups = self.groups();
        if version < 8 {
            let wanted = request
                .topics
                .as_ref()
                .map(|topics| topics.iter().map(|t| (t.name.clone(), t.partition_indexes.clone())).collect::<Vec<_>>());
            let topics = committed_offsets(groups.get(&request.group_id), wanted)
                .into_iter()
                .map(|(name, partitions)| OffsetFetchResponseTopic {
                    name,
                    partitions: partitions
                        .into_iter()
                        .map(|(partition_index, offset, leader_epoch, metadata)| OffsetFetchResponsePartition {
                            partition_index,
                            committed_offset: offset,
                            committed_leader_epoch: leader_epoch,
                            metadata,
                            error_code: 0,
                            ..Default::default()
                        })
                        .collect(),
                    ..Default::default()
                })
                .collect();
            return OffsetFetchResponse { topics, ..Default::default() };
        }
        let groups_out = request
            .groups
            .iter()
            .map(|g| {
                let wanted = g.topics.as_ref().map(|topics| {
                    topics.iter().map(|t| (t.name.clone(), t.partition_indexes.clone())).collect::<Vec<_>>()
                });
                let topics = committed_offsets(groups.get(&g.group_id), wanted)
                    .into_iter()
                    .map(|(name, partitions)| OffsetFetchResponseTopics {
                        name,
                        partitions: partitions
                            .into_iter()
                            .map(|(partition_index, offset, leader_epoch, metadata)| OffsetFetchResponsePartitions {
                                partition_index,
                                committed_offset: offset,
                                committed_leader_epoch: leader_epoch,
                                metadata,
                                error_code: 0,
                                ..Default::default()
                            })
                            .collect(),
                        ..Default::default()
                    })
                    .collect();
                OffsetFetchResponseGroup { group_id: g.group_id.clone(), topics, ..Default::default() }
            })
            .collect();
        OffsetFetchResponse { groups: groups_out, ..Default::default() }
    }

    /// Answers DescribeGroups; unknown groups are `Dead`, as in Kafka.
    pub fn describe(&self, request: &DescribeGroupsRequest) -> DescribeGroupsResponse {
        let groups = self.groups();
        let described = request
            .groups
            .iter()
            .map(|id| match groups.get(id) {
                None => DescribedGroup { group_id: id.clone(), group_state: "Dead".into(), ..Default::default() },
                Some(group) => {
                    let protocol = group.protocol.clone().unwrap_or_default();
                    let stable = group.state == GroupState::Stable;
                    DescribedGroup {
                        group_id: id.clone(),
                        group_state: group.state.name().into(),
                        protocol_type: group.protocol_type.clone().unwrap_or_default(),
                        protocol_data: if stable { protocol.clone() } else { ByteString::default() },
                        members: group
                            .members
                            .iter()
                            .map(|(member_id, m)| DescribedGroupMember {
                                member_id: member_id.clone(),
                                group_instance_id: m.group_instance_id.clone(),
                                client_id: m.client_id.clone(),
                                client_host: m.client_host.clone(),
                                member_metadata: if stable { metadata_for(m, &protocol) } else { Bytes::new() },
                                member_assignment: if stable { m.assignment.clone() } else { Bytes::new() },
                                ..Default::default()
                            })
                            .collect(),
                        ..Default::default()
                    }
                }
            })
            .collect();
        DescribeGroupsResponse { groups: described, ..Default::default() }
    }

    /// Answers ListGroups, filtered by state (v4+).
    pub fn list(&self, request: &ListGroupsRequest) -> ListGroupsResponse {
        let groups = self.groups();
        let mut listed: Vec<ListedGroup> = groups
            .iter()
            .filter(|(_, g)| {
                request.states_filter.is_empty()
                    || request.states_filter.iter().any(|s| s.eq_ignore_ascii_case(g.state.name()))
            })
            .filter(|_| {
                request.types_filter.is_empty()
                    || request.types_filter.iter().any(|t| t.eq_ignore_ascii_case("classic"))
            })
            .map(|(id, g)| ListedGroup {
                group_id: id.clone(),
                protocol_type: g.protocol_type.clone().unwrap_or_default(),
                group_state: g.state.name().into(),
                group_type: "classic".into(),
                ..Default::default()
            })
            .collect();
        listed.sort_by(|a, b| a.group_id.cmp(&b.group_id));
        ListGroupsResponse { groups: listed, ..Default::default() }
    }
}

/// What a SyncGroup does after its checks.
enum SyncStep {
    Done(SyncResult),
    Wait(oneshot::Receiver<SyncResult>, Duration),
}

type SyncOutcome = (Option<ByteString>, Option<ByteString>, SyncStep);

fn sync_step(groups: &mut HashMap<ByteString, Group>, request: &SyncGroupRequest) -> Result<SyncOutcome, ErrorCode> {
    let group = groups.get_mut(&request.group_id).ok_or(ErrorCode::UnknownMemberId)?;
    if !group.members.contains_key(&request.member_id) {
        return Err(ErrorCode::UnknownMemberId);
    }
    if request.generation_id != group.generation {
        return Err(ErrorCode::IllegalGeneration);
    }
    if request.protocol_type.as_ref().is_some_and(|t| Some(t) != group.protocol_type.as_ref())
        || request.protocol_name.as_ref().is_some_and(|p| Some(p) != group.protocol.as_ref())
    {
        return Err(ErrorCode::InconsistentGroupProtocol);
    }
    let names = (group.protocol_type.clone(), group.protocol.clone());
    match group.state {
        GroupState::Empty => Err(ErrorCode::UnknownMemberId),
        GroupState::PreparingRebalance => Err(ErrorCode::RebalanceInProgress),
        GroupState::Stable => {
            let assignment = group.members.get(&request.member_id).map(|m| m.assignment.clone()).unwrap_or_default();
            Ok((names.0, names.1, SyncStep::Done(SyncResult { error: ErrorCode::None, assignment })))
        }
        GroupState::CompletingRebalance => {
            let now = Instant::now();
            if group.leader.as_deref() == Some(&*request.member_id) {
                for a in &request.assignments {
                    if let Some(member) = group.members.get_mut(&a.member_id) {
                        member.assignment = a.assignment.clone();
                    }
                }
                group.state = GroupState::Stable;
                for (id, member) in group.members.iter_mut() {
                    if *id == request.member_id {
                        member.last_seen = now;
                    }
                    if let Some(sync) = member.sync.take() {
                        let _ = sync.send(SyncResult { error: ErrorCode::None, assignment: member.assignment.clone() });
                    }
                }
                log!("group {}: stable at generation {}", request.group_id, group.generation);
                let assignment =
                    group.members.get(&request.member_id).map(|m| m.assignment.clone()).unwrap_or_default();
                Ok((names.0, names.1, SyncStep::Done(SyncResult { error: ErrorCode::None, assignment })))
            } else {
                let member = group.members.get_mut(&request.member_id).ok_or(ErrorCode::UnknownMemberId)?;
                let (tx, rx) = oneshot::channel();
                member.sync = Some(tx);
                member.last_seen = now;
                let wait = member.session_timeout.max(member.rebalance_timeout).min(MAX_REBALANCE_TIMEOUT);
                Ok((names.0, names.1, SyncStep::Wait(rx, wait)))
            }
        }
    }
}

/// One committed offset: partition, offset, leader epoch, metadata.
type OffsetRow = (i32, i64, i32, Option<ByteString>);

/// Committed offsets of a group: all of them (`wanted` = None) or those
/// asked for, -1 where nothing was committed.
fn committed_offsets(
    group: Option<&Group>,
    wanted: Option<Vec<(ByteString, Vec<i32>)>>,
) -> Vec<(ByteString, Vec<OffsetRow>)> {
    let entry = |topic: &str, partition: i32| match group.and_then(|g| g.offsets.get(&(topic.into(), partition))) {
        Some(c) => (partition, c.offset, c.leader_epoch, Some(c.metadata.clone().unwrap_or_default())),
        None => (partition, -1, -1, Some(ByteString::default())),
    };
    match wanted {
        Some(wanted) => wanted
            .into_iter()
            .map(|(topic, partitions)| {
                let rows = partitions.iter().map(|&p| entry(&topic, p)).collect();
                (topic, rows)
            })
            .collect(),
        None => {
            let mut by_topic: BTreeMap<ByteString, Vec<OffsetRow>> = BTreeMap::new();
            if let Some(group) = group {
                for (topic, partition) in group.offsets.keys() {
                    by_topic.entry(topic.clone()).or_default().push(entry(topic, *partition));
                }
            }
            by_topic.into_iter().collect()
        }
    }
}

fn join_response(result: JoinResult, version: i16) -> JoinGroupResponse {
    // Before v7 the protocol name is not nullable.
    let protocol_name = if version < 7 { Some(result.protocol.unwrap_or_default()) } else { result.protocol };
    JoinGroupResponse {
        error_code: result.error.code(),
        generation_id: result.generation,
        protocol_type: result.protocol_type,
        protocol_name,
        leader: result.leader,
        member_id: result.member_id,
        members: result
            .members
            .into_iter()
            .map(|(member_id, group_instance_id, metadata)| JoinGroupResponseMember {
                member_id,
                group_instance_id,
                metadata,
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    }
}

fn sync_response(
    result: SyncResult,
    protocol_type: Option<ByteString>,
    protocol: Option<ByteString>,
    version: i16,
) -> SyncGroupResponse {
    let ok = result.error == ErrorCode::None && version >= 5;
    SyncGroupResponse {
        error_code: result.error.code(),
        assignment: result.assignment,
        protocol_type: if ok { protocol_type } else { None },
        protocol_name: if ok { protocol } else { None },
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kwire::messages::join_group_request::JoinGroupRequestProtocol;
    use kwire::messages::sync_group_request::SyncGroupRequestAssignment;

    fn coordinator() -> Arc<Coordinator> {
        Arc::new(Coordinator::new(Duration::from_millis(50), 1, "127.0.0.1".into(), 9092))
    }

    fn join_request(member_id: &str) -> JoinGroupRequest {
        JoinGroupRequest {
            group_id: "g".into(),
            session_timeout_ms: 10_000,
            rebalance_timeout_ms: 2_000,
            member_id: member_id.into(),
            protocol_type: "consumer".into(),
            protocols: vec![JoinGroupRequestProtocol {
                name: "range".into(),
                metadata: Bytes::from_static(b"m"),
                ..Default::default()
            }],
            ..Default::default()
        }
    }

    fn client() -> Client<'static> {
        Client { client_id: "test", host: "/127.0.0.1".into() }
    }

    #[tokio::test]
    async fn one_member_joins_syncs_commits_and_leaves() {
        let c = coordinator();
        let joined = c.join(client(), &join_request(""), 7).await;
        assert_eq!(joined.error_code, 0);
        assert_eq!((joined.generation_id, joined.leader.clone()), (1, joined.member_id.clone()));
        assert_eq!(joined.members.len(), 1);
        let sync = SyncGroupRequest {
            group_id: "g".into(),
            generation_id: 1,
            member_id: joined.member_id.clone(),
            assignments: vec![SyncGroupRequestAssignment {
                member_id: joined.member_id.clone(),
                assignment: Bytes::from_static(b"a"),
                ..Default::default()
            }],
            ..Default::default()
        };
        let synced = c.sync(&sync, 5).await;
        assert_eq!((synced.error_code, &synced.assignment[..]), (0, &b"a"[..]));
        assert_eq!(synced.protocol_name.as_deref(), Some("range"));
        let hb = HeartbeatRequest {
            group_id: "g".into(),
            generation_id: 1,
            member_id: joined.member_id.clone(),
            ..Default::default()
        };
        assert_eq!(c.heartbeat(&hb).error_code, 0);
        let leave =
            LeaveGroupRequest { group_id: "g".into(), member_id: joined.member_id.clone(), ..Default::default() };
        assert_eq!(c.leave(&leave, 1).error_code, 0);
        assert_eq!(c.heartbeat(&hb).error_code, ErrorCode::UnknownMemberId.code());
    }

    #[tokio::test]
    async fn a_second_member_triggers_a_rebalance() {
        let c = coordinator();
        let first = c.join(client(), &join_request(""), 5).await;
        let sync = |member: &str, generation, assignments| SyncGroupRequest {
            group_id: "g".into(),
            generation_id: generation,
            member_id: member.into(),
            assignments,
            ..Default::default()
        };
        assert_eq!(c.sync(&sync(&first.member_id, 1, vec![]), 3).await.error_code, 0);
        // A second member joins; the first learns from its heartbeat and rejoins.
        let c2 = Arc::clone(&c);
        let second = tokio::spawn(async move { c2.join(client(), &join_request(""), 5).await });
        tokio::time::sleep(Duration::from_millis(20)).await;
        let hb = HeartbeatRequest {
            group_id: "g".into(),
            generation_id: 1,
            member_id: first.member_id.clone(),
            ..Default::default()
        };
        assert_eq!(c.heartbeat(&hb).error_code, ErrorCode::RebalanceInProgress.code());
        let rejoined = c.join(client(), &join_request(&first.member_id), 5).await;
        let second = second.await.unwrap();
        assert_eq!((rejoined.generation_id, second.generation_id), (2, 2));
        assert_eq!(rejoined.leader, first.member_id);
        assert_eq!((rejoined.members.len(), second.members.len()), (2, 0));
        // The follower waits for the leader's assignments.
        let c3 = Arc::clone(&c);
        let follower_id = second.member_id.clone();
        let follower = tokio::spawn(async move { c3.sync(&sync(&follower_id, 2, vec![]), 3).await });
        tokio::time::sleep(Duration::from_millis(20)).await;
        let assignments = vec![SyncGroupRequestAssignment {
            member_id: second.member_id.clone(),
            assignment: Bytes::from_static(b"p1"),
            ..Default::default()
        }];
        assert_eq!(c.sync(&sync(&first.member_id, 2, assignments), 3).await.error_code, 0);
        let follower = follower.await.unwrap();
        assert_eq!((follower.error_code, &follower.assignment[..]), (0, &b"p1"[..]));
    }

    #[tokio::test]
    async fn join_errors() {
        let c = coordinator();
        let mut bad = join_request("");
        bad.session_timeout_ms = 10;
        assert_eq!(c.join(client(), &bad, 5).await.error_code, ErrorCode::InvalidSessionTimeout.code());
        assert_eq!(c.join(client(), &join_request("nobody"), 5).await.error_code, ErrorCode::UnknownMemberId.code());
        let v6 = c.join(client(), &join_request("nobody"), 6).await;
        assert_eq!(v6.protocol_name.as_deref(), Some(""));
        let v7 = c.join(client(), &join_request("nobody"), 7).await;
        assert_eq!(v7.protocol_name, None);
    }
}
