// Both test classes ran (an engine missing from the kit's dependencies would run none, silently) and none failed.
import javax.xml.parsers.DocumentBuilderFactory

def reports = new File(basedir, 'target/surefire-reports')
['com.example.adapter.InProcessContractTest', 'com.example.adapter.HostPoolPropertyTest'].each { name ->
    def report = new File(reports, 'TEST-' + name + '.xml')
    if (!report.isFile()) {
        throw new IllegalStateException("no test report for " + name + " in " + reports)
    }
    def suite = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(report).documentElement
    int tests = suite.getAttribute('tests').toInteger()
    int failed = suite.getAttribute('failures').toInteger() + suite.getAttribute('errors').toInteger()
    if (tests == 0 || failed != 0) {
        throw new IllegalStateException(name + ": " + tests + " tests, " + failed + " failed")
    }
    println name + ": " + tests + " tests passed"
}
return true
