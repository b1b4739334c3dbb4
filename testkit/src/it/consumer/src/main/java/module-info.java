/** A user's application, a named module reading the Volpex modules it uses. */
module com.example.consumer {
    requires io.github.volpex.estimators;
    requires io.github.volpex.erasure;
    requires io.github.volpex.checkpoint;
    requires io.github.volpex.dataspace;
}
