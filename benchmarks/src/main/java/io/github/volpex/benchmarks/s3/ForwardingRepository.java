package io.github.volpex.benchmarks.s3;

import io.github.volpex.checkpoint.repository.FragmentOutput;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;

/**
 * A repository that passes every call on to another, for the reports' wrappers to override what they watch or change.
 */
class ForwardingRepository implements FragmentRepository {

    private final FragmentRepository repository;

    ForwardingRepository(FragmentRepository repository) {
        this.repository = repository;
    }

    /**
     * The same repository, except that the one underneath is never promised a length (its {@code create(key,
     * lengthBytes)} is never called): it writes every value as one of unknown length (an {@code S3Repository}: a
     * multipart upload past the part size), and the promise is checked around it as the interface's default does.
     */
    static FragmentRepository withoutLengthPromises(FragmentRepository repository) {
        return new ForwardingRepository(repository) {
            @Override
            public FragmentOutput create(String key, long lengthBytes) throws IOException {
                return FragmentOutput.checkingLength(key, lengthBytes, create(key));
            }
        };
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
    public FragmentOutput create(String key, long lengthBytes) throws IOException {
        return repository.create(key, lengthBytes);
    }

    @Override
    public Optional<InputStream> open(String key) throws IOException {
        return repository.open(key);
    }
}
