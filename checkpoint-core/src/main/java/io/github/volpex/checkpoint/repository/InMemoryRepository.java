package io.github.volpex.checkpoint.repository;

import io.github.volpex.checkpoint.internal.Checks;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;

/** A {@link FragmentRepository} in the heap; see {@link FragmentRepository#inMemory}. */
final class InMemoryRepository implements FragmentRepository {

    private final String id;
    private final ConcurrentSkipListMap<String, byte[]> values = new ConcurrentSkipListMap<>();

    InMemoryRepository(String id) {
        this.id = Checks.requireRepositoryId(id);
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public void put(String key, byte[] content) {
        FragmentRepository.requireValidKey(key);
        values.put(key, Objects.requireNonNull(content, "content").clone());
    }

    @Override
    public Optional<byte[]> get(String key) {
        FragmentRepository.requireValidKey(key);
        byte[] value = values.get(key);
        return value == null ? Optional.empty() : Optional.of(value.clone());
    }

    @Override
    public boolean delete(String key) {
        FragmentRepository.requireValidKey(key);
        return values.remove(key) != null;
    }

    @Override
    public List<String> list(String prefix) {
        Objects.requireNonNull(prefix, "prefix");
        if (prefix.isEmpty()) {
            return List.copyOf(values.keySet());
        }
        return values.tailMap(prefix, true).keySet().stream().takeWhile(k -> k.startsWith(prefix)).toList();
    }

    @Override
    public String toString() {
        return "FragmentRepository.inMemory(" + id + ")";
    }
}
