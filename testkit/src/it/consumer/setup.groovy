// Before the consumer's build: (1) the BOM it imports must pin every published module, and only those; (2) the
// README's middleware program is pasted into this project as a user would: verbatim, under a package line.
import javax.xml.parsers.DocumentBuilderFactory

def root = new File(readme).parentFile
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
def readmeText = new File(readme).getText('UTF-8')
def section = readmeText.indexOf('## Using Volpex in your middleware')
if (section < 0) {
    throw new IllegalStateException("README.md has no section 'Using Volpex in your middleware'")
}
def start = readmeText.indexOf('```java\n', section)
def end = readmeText.indexOf('\n```\n', start)
if (start < 0 || end < 0) {
    throw new IllegalStateException("the section 'Using Volpex in your middleware' has no java block")
}
def program = readmeText.substring(start + '```java\n'.length(), end)
def file = new File(basedir, 'src/main/java/com/example/consumer/MiddlewareGuide.java')
file.parentFile.mkdirs()
file.setText('package com.example.consumer;\n\n' + program + '\n', 'UTF-8')
return true
