package io.github.volpex.dataspace;

/**
 * Where a request stands once the in-process dataspace has run it up to the point where it would wait: complete with
 * its {@link Outcome}, or {@link Pending} — waiting for its tag, issued by this call or joined.
 */
sealed interface RequestState permits Outcome, Pending {
}
