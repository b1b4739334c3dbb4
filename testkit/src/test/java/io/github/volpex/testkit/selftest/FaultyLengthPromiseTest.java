package io.github.volpex.testkit.selftest;

import io.github.volpex.checkpoint.repository.FragmentOutput;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.testkit.Fault;
import io.github.volpex.testkit.FaultyRepository;
import io.github.volpex.testkit.RepositoryCall;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A value of promised length reaches the wrapped repository with its promise (a repository that streams such values,
 * as the S3 one can, meets the faults on that path), and its output meets the same faults as any other.
 */
class FaultyLengthPromiseTest {

    /** Stores in memory and records every length promised to it. */
    private static final class Promises implements FragmentRepository {
        private final FragmentRepository memory = FragmentRepository.inMemory("promises");
        final List<String> promised = Collections.synchronizedList(new ArrayList<>());

        @Override
        public String id() {
            return memory.id();
        }

        @Override
        public void put(String key, byte[] content) throws IOException {
            memory.put(key, content);
        }

        @Override
        public Optional<byte[]> get(String key) throws IOException {
            return memory.get(key);
        }

        @Override
        public boolean delete(String key) throws IOException {
            return memory.delete(key);
        }

        @Override
        public List<String> list(String prefix) throws IOException {
            return memory.list(prefix);
        }

        @Override
        public FragmentOutput create(String key, long lengthBytes) throws IOException {
            promised.add(key + "=" + lengthBytes);
            return FragmentRepository.super.create(key, lengthBytes);
        }
    }

    @Test
    void the_promise_reaches_the_wrapped_repository_and_is_still_checked() throws IOException {
        Promises promises = new Promises();
        FaultyRepository faulty = FaultyRepository.wrap(promises);
        try (FragmentOutput out = faulty.create("kept", 3)) {
            out.write(new byte[] {1, 2, 3});
            out.commit();
        }
        assertEquals(List.of("kept=3"), promises.promised);
        assertArrayEquals(new byte[] {1, 2, 3}, promises.get("kept").orElseThrow());
        // Fewer bytes than promised: refused at the commit (as FragmentOutput.checkingLength says), nothing stored.
        try (FragmentOutput out = faulty.create("short", 3)) {
            out.write(new byte[] {1, 2});
            assertThrows(IllegalStateException.class, out::commit);
        }
        assertEquals(Optional.empty(), promises.get("short"));
        assertThrows(IllegalArgumentException.class, () -> faulty.create("k", -1));
        assertEquals(List.of("kept=3", "short=3"), promises.promised);
    }

    @Test
    void its_output_meets_the_schedules_faults() throws IOException {
        for (RepositoryCall faulted : List.of(RepositoryCall.CREATE, RepositoryCall.WRITE, RepositoryCall.COMMIT)) {
            Promises promises = new Promises();
            FaultyRepository faulty = FaultyRepository.wrap(promises);
            List<RepositoryCall> calls = Collections.synchronizedList(new ArrayList<>());
            faulty.schedule((id, call, key) -> {
                calls.add(call);
                return call == faulted ? Fault.FAIL : Fault.NONE;
            });
            assertThrows(IOException.class, () -> {
                try (FragmentOutput out = faulty.create("v", 2)) {
                    out.write(new byte[] {7, 8});
                    out.commit();
                }
            }, faulted + " fails");
            assertEquals(Optional.empty(), promises.get("v"), faulted + ": nothing stored");
            assertTrue(calls.contains(faulted), faulted + " was asked: " + calls);
            // A dropped commit answers as if it had been done, and stores nothing.
            faulty.schedule((id, call, key) -> call == RepositoryCall.COMMIT ? Fault.DROP : Fault.NONE);
            try (FragmentOutput out = faulty.create("dropped", 1)) {
                out.write(5);
                out.commit();
            }
            assertEquals(Optional.empty(), promises.get("dropped"), faulted + ": the dropped commit stored nothing");
        }
    }
}
