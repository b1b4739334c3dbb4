// Pastes the README's middleware program into this project, as a user would: verbatim, under a package line.
def text = new File(readme).getText('UTF-8')
def section = text.indexOf('## Using Volpex in your middleware')
if (section < 0) {
    throw new IllegalStateException("README.md has no section 'Using Volpex in your middleware'")
}
def start = text.indexOf('```java\n', section)
def end = text.indexOf('\n```\n', start)
if (start < 0 || end < 0) {
    throw new IllegalStateException("the section 'Using Volpex in your middleware' has no java block")
}
def program = text.substring(start + '```java\n'.length(), end)
def file = new File(basedir, 'src/main/java/com/example/consumer/MiddlewareGuide.java')
file.parentFile.mkdirs()
file.setText('package com.example.consumer;\n\n' + program + '\n', 'UTF-8')
return true
