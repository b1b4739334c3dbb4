package io.github.volpex.dataspace.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.dataspace.zookeeper.WriterElection.Role;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/**
 * The role a writer-election member shows, alone: terms, the epoch while writing, what the listener is told (once per
 * change, in order), and that a closed member stays closed.
 */
class RoleStateTest {

    /** Runs the listener's calls when told to, as a queueing executor would. */
    private static final class Held implements Executor {
        final List<Runnable> tasks = new ArrayList<>();

        @Override
        public void execute(Runnable task) {
            tasks.add(task);
        }

        void runAll() {
            while (!tasks.isEmpty()) {
                tasks.remove(0).run();
            }
        }
    }

    @Test
    void a_reconnection_under_the_same_epoch_is_the_same_term() {
        List<String> told = new ArrayList<>();
        RoleState roles = new RoleState("m", "job", Runnable::run, (role, epoch) -> told.add(role + " " + epoch));
        roles.elect(4);
        roles.demote();
        roles.elect(4);
        roles.elect(4);
        roles.demote();
        roles.elect(7);
        assertEquals(2, roles.terms());
        assertEquals(OptionalLong.of(7), roles.epoch());
        assertEquals(List.of("WRITER 4", "CANDIDATE 4", "WRITER 4", "CANDIDATE 4", "WRITER 7"), told,
                "a repeated election is no change; leaving the role names the epoch that ended");
    }

    @Test
    void only_the_writer_has_an_epoch_to_commit_under() throws IOException {
        RoleState roles = new RoleState("m", "job", Runnable::run, null);
        assertEquals(OptionalLong.empty(), roles.epoch());
        IOException candidate = assertThrows(IOException.class, () -> roles.writerEpoch("host-a"));
        assertEquals("host-a does not hold the writer role of job \"job\" (candidate)", candidate.getMessage());
        roles.elect(3);
        assertEquals(3, roles.writerEpoch("host-a"));
        roles.close();
        assertTrue(assertThrows(IOException.class, () -> roles.writerEpoch("host-a")).getMessage()
                .endsWith("(closed)"));
    }

    @Test
    void a_closed_member_stays_closed_and_stops_waiting() throws InterruptedException {
        List<Role> told = new ArrayList<>();
        Held executor = new Held();
        RoleState roles = new RoleState("m", "job", executor, (role, epoch) -> told.add(role));
        roles.elect(1);
        roles.close();
        roles.elect(2);
        roles.demote();
        assertEquals(Role.CLOSED, roles.role());
        assertEquals(1, executor.tasks.size(), "one drain runs the notices queued while it was pending");
        executor.runAll();
        assertEquals(List.of(Role.WRITER, Role.CLOSED), told);
        assertFalse(roles.awaitWriter(Duration.ofDays(1)), "a closed member is no writer, and waits for nothing");
    }

    @Test
    void waiting_for_the_role_ends_with_the_timeout_or_the_election() throws InterruptedException {
        RoleState roles = new RoleState("m", "job", Runnable::run, null);
        assertFalse(roles.awaitWriter(Duration.ZERO));
        roles.elect(0);
        assertTrue(roles.awaitWriter(Duration.ZERO));
    }

    @Test
    void a_failing_listener_does_not_stop_the_notices_after_it() {
        List<Long> told = new ArrayList<>();
        RoleState roles = new RoleState("m", "job", Runnable::run, (role, epoch) -> {
            told.add(epoch);
            if (epoch == 1) {
                throw new IllegalStateException("listener failure");
            }
        });
        roles.elect(1);
        roles.elect(2);
        assertEquals(List.of(1L, 2L), told);
    }
}
