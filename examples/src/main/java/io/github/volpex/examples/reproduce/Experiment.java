package io.github.volpex.examples.reproduce;

/** One paper's evaluation, reproduced in simulation with the library's own components. */
interface Experiment {

    /** Returns the name typed after {@code reproduce}, for example {@code ni-harwood}. */
    String name();

    /** Returns a one-line title naming the paper and the figures or tables reproduced. */
    String title();

    /** Returns a rough wall time, in seconds on two cores, used for the progress estimate before the first step. */
    double estimatedSeconds(Setup setup);

    /**
     * Runs the experiment.
     *
     * @param setup    seed, scale and data location
     * @param progress where to report steps
     * @return tables, charts and findings
     * @throws Exception if the run cannot complete
     */
    Result run(Setup setup, Progress progress) throws Exception;
}
