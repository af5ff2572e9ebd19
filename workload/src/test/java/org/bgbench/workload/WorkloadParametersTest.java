package org.bgbench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bgbench.model.Action;
import org.bgbench.model.FeedWorkload;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.SessionType;
import org.bgbench.workload.distribution.DistributionKind;
import org.bgbench.workload.mix.Mix;
import org.bgbench.workload.mix.Mixes;
import org.junit.jupiter.api.Test;

class WorkloadParametersTest {
    private static Map<String, String> props(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void defaults() {
        WorkloadSpec s = WorkloadParameters.toSpec(Map.of());
        assertThat(s).isEqualTo(WorkloadSpec.defaults());
        assertThat(s.mixName()).isEqualTo("low");
        assertThat(s.socialites().kind()).isEqualTo(DistributionKind.DZIPFIAN);
        assertThat(s.socialites().theta()).isEqualTo(0.27);
        assertThat(s.targets().kind()).isEqualTo(DistributionKind.UNIFORM);
        assertThat(s.topK()).isEqualTo(5);
        assertThat(s.maxExecutionTime()).isEqualTo(Duration.ofSeconds(60));
        assertThat(s.warmup()).isEqualTo(Warmup.NONE);
        assertThat(s.locks()).isTrue();
        assertThat(s.uniqueSocialites()).isTrue();
        assertThat(s.describe()).contains("mix low").contains("dzipfian θ=0.27").contains("T=1 for 1m");
    }

    @Test
    void uscWorkloadFileKeys() {
        WorkloadSpec s = WorkloadParameters.toSpec(props(
                "workload",
                "edu.usc.bg.workloads.CoreWorkload",
                "ViewProfileAction",
                "0.4",
                "listfriendsaction",
                "0.05",
                "VIEWFRIENDREQACTION",
                "0.05",
                "InviteFriendAction",
                "0.004",
                "AcceptFriendReqAction",
                "0.002",
                "RejectFriendReqAction",
                "0.002",
                "ThawFriendshipAction",
                "0.002",
                "ViewTopKResourcesAction",
                "0.49",
                "ViewCommentsOnResourceAction",
                "0",
                "PostCommentOnResourceAction",
                "0",
                "DeleteCommentOnResourceAction",
                "0",
                "ViewSelfProfileSession",
                "0",
                "ViewNewsFeedAction",
                "0",
                "requestdistribution",
                "zipfian",
                "zipfianmean",
                "0.5",
                "threadcount",
                "100",
                "maxexecutiontime",
                "180",
                "operationcount",
                "5000",
                "warmup",
                "1000",
                "thinktime",
                "10",
                "interarrivaltime",
                "2s",
                "insertimage",
                "true",
                "usercount",
                "10000"));
        assertThat(s.mix()).isEqualTo(Mixes.byName("low"));
        assertThat(s.mixName()).isEqualTo("custom");
        assertThat(s.socialites().kind()).isEqualTo(DistributionKind.ZIPFIAN);
        assertThat(s.socialites().theta()).isEqualTo(0.5);
        assertThat(s.threads()).isEqualTo(100);
        assertThat(s.maxExecutionTime()).isEqualTo(Duration.ofSeconds(180));
        assertThat(s.operations()).isEqualTo(5000);
        assertThat(s.warmup()).isEqualTo(new Warmup.Requests(1000));
        assertThat(s.warmupThreads()).isEqualTo(100);
        assertThat(s.thinkTime()).isEqualTo(Duration.ofMillis(10));
        assertThat(s.interArrivalTime()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void missingFrequenciesAreZeroAndSessionSpellingsAreAccepted() {
        WorkloadSpec s = WorkloadParameters.toSpec(
                props("viewfrdprofilesession", "0.5", "InviteFrndSession", "0.25", "ThawFrdshipSession", "0.25"));
        assertThat(s.mix().weight(SessionType.VIEW_FRIEND_PROFILE)).isEqualTo(0.5);
        assertThat(s.mix().weight(SessionType.INVITE_FRIEND)).isEqualTo(0.25);
        assertThat(s.mix().weight(Action.VP)).isZero();
        assertThatThrownBy(
                        () -> WorkloadParameters.toSpec(props("InviteFrdSession", "0.5", "InviteFrndSession", "0.5")))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("InviteFrdSession")
                .hasMessageContaining("InviteFrndSession");
    }

    @Test
    void percentages() {
        Mix pct = WorkloadParameters.toSpec(props("ViewProfileAction", "40%", "ViewTopKResourcesAction", "60 %"))
                .mix();
        Mix plainHundred = WorkloadParameters.toSpec(props("ViewProfileAction", "40", "ViewTopKResourcesAction", "60"))
                .mix();
        Mix mixed = WorkloadParameters.toSpec(props("ViewProfileAction", "40%", "ViewTopKResourcesAction", "0.6"))
                .mix();
        assertThat(pct.weight(Action.VP)).isCloseTo(0.4, within(1e-15));
        assertThat(plainHundred).isEqualTo(pct);
        assertThat(mixed).isEqualTo(pct);
    }

    @Test
    void sumNotOneNamesTheKeysAndTheSum() {
        assertThatThrownBy(
                        () -> WorkloadParameters.toSpec(props("ViewProfileAction", "0.4", "ListFriendsAction", "0.55")))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("ViewProfileAction=0.4")
                .hasMessageContaining("ListFriendsAction=0.55")
                .hasMessageContaining("95 %");
        assertThatThrownBy(
                        () -> WorkloadParameters.toSpec(props("ViewProfileAction", "40%", "ListFriendsAction", "50%")))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("90 %");
        // 1e-7 off is within the tolerance of 1e-6; 1e-5 is not.
        assertThat(WorkloadParameters.toSpec(props("ViewProfileAction", "0.5", "ListFriendsAction", "0.5000001"))
                        .mix()
                        .weight(Action.VP))
                .isCloseTo(0.5, within(1e-6));
        assertThatThrownBy(() ->
                        WorkloadParameters.toSpec(props("ViewProfileAction", "0.5", "ListFriendsAction", "0.50001")))
                .isInstanceOf(InvalidParameterException.class);
    }

    @Test
    void negativeOrMalformedFrequencyNamesTheKey() {
        assertThatThrownBy(
                        () -> WorkloadParameters.toSpec(props("ViewProfileAction", "1.1", "ListFriendsAction", "-0.1")))
                .isInstanceOfSatisfying(
                        InvalidParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo("ListFriendsAction"))
                .hasMessageContaining("0 or more");
        assertThatThrownBy(() -> WorkloadParameters.toSpec(props("ViewProfileAction", "lots")))
                .isInstanceOfSatisfying(
                        InvalidParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo("ViewProfileAction"));
    }

    @Test
    void unknownFrequencyKeyIsRejected() {
        assertThatThrownBy(() -> WorkloadParameters.toSpec(props("ViewProfilAction", "1")))
                .isInstanceOfSatisfying(
                        InvalidParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo("ViewProfilAction"))
                .hasMessageContaining("ViewProfileAction");
        assertThatThrownBy(() ->
                        WorkloadParameters.toSpec(props("ListCommonFriendsAction", "0.5", "ViewProfileAction", "0.5")))
                .isInstanceOfSatisfying(
                        InvalidParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo("ListCommonFriendsAction"))
                .hasMessageContaining("does not implement");
        assertThat(WorkloadParameters.toSpec(props("ViewNewsFeedAction", "0.9", "ShareResourceAction", "10%"))
                        .mix()
                        .perRequest(Action.SR))
                .as("USC BG's feed keys")
                .isEqualTo(0.1);
        assertThat(WorkloadParameters.isKey("viewprofileaction")).isTrue();
        assertThat(WorkloadParameters.isKey("threadcount")).isTrue();
        assertThat(WorkloadParameters.isKey("usercount")).isFalse();
    }

    @Test
    void namedMixes() {
        assertThat(WorkloadParameters.toSpec(props("mix", "HIGH")).mix()).isEqualTo(Mixes.byName("high"));
        assertThat(WorkloadParameters.toSpec(props("mix", "HIGH")).mixName()).isEqualTo("high");
        assertThat(WorkloadParameters.toSpec(props("workload", "cikm-low")).mixName())
                .isEqualTo("cikm-low");
        assertThatThrownBy(() -> WorkloadParameters.toSpec(props("mix", "medium")))
                .isInstanceOfSatisfying(
                        InvalidParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo("mix"))
                .hasMessageContaining("verylow");
        assertThatThrownBy(() -> WorkloadParameters.toSpec(props("workload", "medium")))
                .isInstanceOfSatisfying(
                        InvalidParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo("workload"));
        assertThatThrownBy(() -> WorkloadParameters.toSpec(props("mix", "high", "ViewProfileAction", "1")))
                .isInstanceOfSatisfying(
                        InvalidParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo("mix"))
                .hasMessageContaining("ViewProfileAction=1");
    }

    @Test
    void unknownDistributionNamesTheKey() {
        assertThatThrownBy(() -> WorkloadParameters.toSpec(props("requestdistribution", "gaussian")))
                .isInstanceOfSatisfying(
                        InvalidParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo("requestdistribution"))
                .hasMessageContaining("uniform, zipfian, dzipfian, latest");
        assertThatThrownBy(() -> WorkloadParameters.toSpec(props("targetdistribution", "dzipfian")))
                .isInstanceOfSatisfying(
                        InvalidParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo("targetdistribution"));
        assertThatThrownBy(() -> WorkloadParameters.toSpec(props("zipfianmean", "1.5")))
                .isInstanceOfSatisfying(
                        InvalidParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo("zipfianmean"));
    }

    @Test
    void latestDefaultsToYcsbSkew() {
        WorkloadSpec s = WorkloadParameters.toSpec(props("requestdistribution", "latest"));
        assertThat(s.socialites().theta()).isEqualTo(0.01);
        assertThat(WorkloadParameters.toSpec(props("requestdistribution", "LATEST", "requestmean", "0.3"))
                        .socialites()
                        .theta())
                .isEqualTo(0.3);
    }

    @Test
    void badDurationNamesTheKey() {
        for (String key : List.of("maxexecutiontime", "thinktime", "interarrivaltime")) {
            assertThatThrownBy(() -> WorkloadParameters.toSpec(props(key, "ten minutes")))
                    .isInstanceOfSatisfying(
                            InvalidParameterException.class,
                            e -> assertThat(e.parameter()).isEqualTo(key))
                    .hasMessageContaining("30s");
        }
        assertThatThrownBy(() -> WorkloadParameters.toSpec(props("warmup", "1.5")))
                .isInstanceOfSatisfying(
                        InvalidParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo("warmup"));
        assertThatThrownBy(() -> WorkloadParameters.toSpec(props("maxexecutiontime", "0")))
                .isInstanceOfSatisfying(
                        InvalidParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo("maxexecutiontime"))
                .hasMessageContaining("operationcount");
    }

    @Test
    void runEndsAndWarmup() {
        WorkloadSpec ops = WorkloadParameters.toSpec(props("operationcount", "1000"));
        assertThat(ops.maxExecutionTime()).isZero();
        assertThat(ops.timeLimited()).isFalse();
        assertThat(WorkloadParameters.toSpec(props("maxexecutiontime", "10m")).maxExecutionTime())
                .isEqualTo(Duration.ofMinutes(10));
        assertThat(WorkloadParameters.toSpec(props("warmup", "5s")).warmup())
                .isEqualTo(new Warmup.Time(Duration.ofSeconds(5)));
        assertThat(WorkloadParameters.toSpec(props("warmup", "0")).warmup()).isEqualTo(Warmup.NONE);
        assertThat(WorkloadParameters.toSpec(props("warmup", "2_000")).warmup().describe())
                .isEqualTo("2000 requests");
    }

    @Test
    void workersAndSwitches() {
        WorkloadSpec s = WorkloadParameters.toSpec(props(
                "probs",
                "0.3@0.6@0.1@",
                "machineid",
                "2",
                "locks",
                "false",
                "uniquesocialites",
                "off",
                "topk",
                "10",
                "workloadseed",
                "7"));
        assertThat(s.workers()).isEqualTo(3);
        assertThat(s.workerIndex()).isEqualTo(2);
        assertThat(s.rates()).containsExactly(0.3, 0.6, 0.1);
        assertThat(s.locks()).isFalse();
        assertThat(s.uniqueSocialites()).isFalse();
        assertThat(s.topK()).isEqualTo(10);
        assertThat(s.seed()).isEqualTo(7);
        assertThat(WorkloadParameters.toSpec(props("numclients", "4")).workerRates())
                .containsExactly(1.0, 1.0, 1.0, 1.0);
        assertThatThrownBy(() -> WorkloadParameters.toSpec(props("numclients", "2", "probs", "1,2,3")))
                .isInstanceOfSatisfying(
                        InvalidParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo("probs"));
        assertThatThrownBy(() -> WorkloadParameters.toSpec(props("numclients", "2", "machineid", "2")))
                .isInstanceOfSatisfying(
                        InvalidParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo("machineid"));
        assertThatThrownBy(() -> WorkloadParameters.toSpec(props("threadcount", "many")))
                .isInstanceOfSatisfying(
                        InvalidParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo("threadcount"));
    }

    @Test
    void keysDescribeEveryKeyTheParserReads() {
        assertThat(WorkloadParameters.KEYS)
                .containsKeys(
                        "mix",
                        "requestdistribution",
                        "zipfianmean",
                        "topk",
                        "thinktime",
                        "interarrivaltime",
                        "threadcount",
                        "maxexecutiontime",
                        "operationcount",
                        "warmup",
                        "warmupthreads",
                        "locks",
                        "uniquesocialites",
                        "numclients",
                        "machineid",
                        "probs",
                        "workloadseed",
                        "ViewProfileAction",
                        "ThawFrdshipSession",
                        "commentlength",
                        "targetdistribution");
        assertThat(WorkloadParameters.KEYS.values())
                .allSatisfy(d -> assertThat(d).isNotBlank());
    }

    @Test
    void feedKeysAndTheMixesOfTable89() {
        WorkloadSpec ws = WorkloadParameters.toSpec(props(
                "mix",
                "feed-high",
                "feedk",
                "20",
                "pageshareratio",
                "1%",
                "sharelistratio",
                "0.25",
                "sharelistsize",
                "4"));
        assertThat(ws.feeds()).isEqualTo(new FeedWorkload(20, 0.01, 0.25, 4));
        assertThat(ws.mix().perRequest(Action.VNF)).isEqualTo(0.89);
        assertThat(ws.mix().growsData()).isTrue();
        assertThat(ws.mix().isSymmetric())
                .as("table 8.9's friendship writes are symmetric")
                .isTrue();
        assertThat(WorkloadParameters.toSpec(props("mix", "feed-verylow")).mix().perRequest(Action.SR))
                .isEqualTo(0.001);
        assertThat(WorkloadParameters.toSpec(props()).feeds()).isEqualTo(FeedWorkload.DEFAULTS);
        assertThatThrownBy(() -> WorkloadParameters.toSpec(props("feedk", "0")))
                .isInstanceOfSatisfying(
                        InvalidParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo("feedk"));
        assertThatThrownBy(() -> WorkloadParameters.toSpec(props("pageshareratio", "lots")))
                .hasMessageContaining("pageshareratio")
                .hasMessageContaining("1%");
        assertThatThrownBy(() -> WorkloadParameters.toSpec(props("pageshareratio", "150%")))
                .hasMessageContaining("from 0 to 1");
    }
}
