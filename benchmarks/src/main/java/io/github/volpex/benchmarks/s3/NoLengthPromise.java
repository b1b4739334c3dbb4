package io.github.volpex.benchmarks.s3;

import io.github.volpex.checkpoint.repository.FragmentOutput;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;

/**
 * A repository passed on to another, except that it keeps the interface's default
 * {@link FragmentRepository#create(String, long)}: the one underneath is never promised a length, and writes as it
 * does a value of unknown length (an {@code S3Repository}: a multipart upload past the part size).
 */
final class NoLengthPromise implements FragmentRepository {

    private final FragmentRepository repository;

    NoLengthPromise(FragmentRepository repository) {
        this.repository = repository;
    }

    @Override
    public String id() {
        return repository.id();
    }

    @Override
    public void put(String key, byte[] content) throws IOException {
        repository.put(key, content);
    }

    @Override
    public Optional<byte[]> get(String key) throws IOException {
        return repository.get(key);
    }

    @Override
    public boolean delete(String key) throws IOException {
        return repository.delete(key);
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        return repository.list(prefix);
    }

    @Override
    public FragmentOutput create(String key) throws IOException {
        return repository.create(key);
    }

    @Override
    public Optional<InputStream> open(String key) throws IOException {
        return repository.open(key);
    }
}
