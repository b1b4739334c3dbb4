// Before the consumer's build: (1) the BOM it imports must pin every published module, and only those; (2) the
// program of docs/middleware.md is pasted into this project as a user would: verbatim, under a package line.
import javax.xml.parsers.DocumentBuilderFactory

def root = new File(repositoryRoot).canonicalFile
def parse = { File file -> DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file).documentElement }
def children = { element, String name ->
    def nodes = element.childNodes
    (0..<nodes.length).collect { nodes.item(it) }.findAll { it.nodeName == name }
}
def text = { element, String name ->
    def found = children(element, name)
    found ? found[0].textContent.trim() : null
}

// (1) A module is published unless its POM sets maven.deploy.skip (examples, benchmarks, test-support); POM-only
// modules (the parent, the BOM itself) are not dependencies a user adds.
def published = [] as SortedSet
def unpublished = [] as SortedSet
children(children(parse(new File(root, 'pom.xml')), 'modules')[0], 'module').each { module ->
    def pom = parse(new File(root, module.textContent.trim() + '/pom.xml'))
    def properties = children(pom, 'properties')
    def skip = properties ? text(properties[0], 'maven.deploy.skip') : null
    if (skip == 'true') {
        unpublished << text(pom, 'artifactId')
    } else if ((text(pom, 'packaging') ?: 'jar') != 'pom') {
        published << text(pom, 'artifactId')
    }
}
def bom = parse(new File(root, 'volpex-bom/pom.xml'))
def managed = children(children(children(bom, 'dependencyManagement')[0], 'dependencies')[0], 'dependency')
        .collect { text(it, 'artifactId') } as SortedSet
if (managed != published) {
    throw new IllegalStateException("volpex-bom must manage exactly the published modules " + published
            + " (not the unpublished " + unpublished + "), but manages " + managed)
}
println "volpex-bom manages every published module: " + managed + "; not published: " + unpublished

// (2)
// The block marked <!-- snippet: MiddlewareGuide -->, as examples' DocumentationSnippetsTest finds it.
def guideText = new File(middlewareGuide).getText('UTF-8')
def marker = guideText.indexOf('<!-- snippet: MiddlewareGuide -->\n```java\n')
if (marker < 0) {
    throw new IllegalStateException(middlewareGuide + " has no java block marked <!-- snippet: MiddlewareGuide -->")
}
def start = guideText.indexOf('```java\n', marker)
def end = guideText.indexOf('\n```\n', start)
if (end < 0) {
    throw new IllegalStateException("the block MiddlewareGuide of " + middlewareGuide + " does not end")
}
def program = guideText.substring(start + '```java\n'.length(), end)
def file = new File(basedir, 'src/main/java/com/example/consumer/MiddlewareGuide.java')
file.parentFile.mkdirs()
file.setText('package com.example.consumer;\n\n' + program + '\n', 'UTF-8')
return true
