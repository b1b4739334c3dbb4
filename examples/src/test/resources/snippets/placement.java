package snippets;

import io.github.volpex.checkpoint.placement.Objective;
import io.github.volpex.checkpoint.placement.RepositorySelector;
import io.github.volpex.checkpoint.placement.SelectionProblem;
import io.github.volpex.checkpoint.placement.SelectionResult;
import io.github.volpex.checkpoint.placement.StorageHost;
import io.github.volpex.estimators.SurvivalFunction;
import java.util.List;

/** Where to keep checkpoints: the given values are the middleware's. */
final class PlacementSnippet {
    static SelectionResult select(long checkpointBytes, List<StorageHost> hosts, double intervalSeconds,
                                  double usefulWorkSeconds, SurvivalFunction computeHostReliability,
                                  double uptimeSeconds) {
        //@snippet
        return chosen;
    }
}
