/**
 * Runnable host applications that compose every Volpex module. An application, not a library: it exports nothing.
 *
 * @since 0.1
 */
module io.github.volpex.examples {
    requires io.github.volpex.checkpoint;
    requires io.github.volpex.dataspace;
    requires io.github.volpex.erasure;
    requires io.github.volpex.estimators;
    requires java.desktop;
}
