package io.github.volpex.checkpoint.repository.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URI;
import org.junit.jupiter.api.Test;

/** Endpoints that cannot be an S3 store's are refused when the repository is configured, naming the endpoint. */
class S3EndpointTest {

    private static String refused(String endpoint) {
        return assertThrows(IllegalArgumentException.class,
                () -> S3Repository.builder("bucket").endpoint(URI.create(endpoint))).getMessage();
    }

    @Test
    void an_endpoint_without_a_scheme_is_refused_naming_it() {
        assertEquals("endpoint must be an http or https URI with a host, such as http://127.0.0.1:9000: "
                + "\"localhost:9000\" has the scheme \"localhost\" (a host and port with no scheme read as one: "
                + "write http://localhost:9000)", refused("localhost:9000"));
        assertEquals("endpoint must be an http or https URI with a host, such as http://127.0.0.1:9000: "
                + "\"s3.example.org\" has no scheme", refused("s3.example.org"));
    }

    @Test
    void other_schemes_no_host_queries_and_fragments_are_refused() {
        assertEquals("endpoint must be an http or https URI with a host, such as http://127.0.0.1:9000: "
                + "\"ftp://host:21\" has the scheme \"ftp\"", refused("ftp://host:21"));
        assertEquals("endpoint must be an http or https URI with a host, such as http://127.0.0.1:9000: "
                + "\"http:///path\"", refused("http:///path"));
        assertEquals("endpoint must be an http or https URI with a host, such as http://127.0.0.1:9000: "
                + "\"http://host:9000/?a=b\"", refused("http://host:9000/?a=b"));
        assertEquals("endpoint must be an http or https URI with a host, such as http://127.0.0.1:9000: "
                + "\"https://host#part\"", refused("https://host#part"));
        assertEquals("endpoint", assertThrows(NullPointerException.class,
                () -> S3Repository.builder("bucket").endpoint(null)).getMessage());
    }

    @Test
    void http_and_https_endpoints_with_a_host_are_taken() {
        for (String endpoint : new String[] {"http://127.0.0.1:9000", "https://s3.example.org", "HTTP://h:1/base",
                "http://[::1]:9000"}) {
            S3Repository.builder("bucket").endpoint(URI.create(endpoint)).region("us-east-1").build().close();
        }
    }
}
