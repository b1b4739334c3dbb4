// Both runs (module path, class path) printed the program's last line with every check true.
def log = new File(basedir, 'build.log').getText('UTF-8')
def runs = log.readLines().findAll { it.startsWith('checkpoint interval ') }
if (runs.size() != 2) {
    throw new IllegalStateException("expected the program's summary from 2 runs, found " + runs.size())
}
runs.each { line ->
    if (!(line ==~ /checkpoint interval \d+ s; checkpoint on 9 hosts; replicas agree: true; consumed once: true/)) {
        throw new IllegalStateException("unexpected summary: " + line)
    }
}
println "consumer runs: " + runs
return true
