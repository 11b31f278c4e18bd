package dev.proactor.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * Users import the parent pom as a BOM (README, "Use it in your project"), which manages every version it lists in
 * their whole build: it must list this project's artifacts and SLF4J only. A version only the build or the tests
 * need belongs in the dependencyManagement of the module that uses it.
 */
class ParentBomTest {

    private static final Set<String> ALLOWED_GROUPS = Set.of("dev.proactor", "org.slf4j");

    @Test
    void theParentManagesOnlyThisProjectsArtifactsAndSlf4j() throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Document pom = factory.newDocumentBuilder().parse(Path.of("..", "pom.xml").toFile()); // surefire: module dir
        NodeList sections = pom.getDocumentElement().getElementsByTagName("dependencyManagement");
        assertEquals(1, sections.getLength(), "one dependencyManagement, the project's own (profiles add none)");
        List<String> foreign = new ArrayList<>();
        NodeList dependencies = ((Element) sections.item(0)).getElementsByTagName("dependency");
        for (int i = 0; i < dependencies.getLength(); i++) {
            Element d = (Element) dependencies.item(i);
            String group = text(d, "groupId");
            if (!ALLOWED_GROUPS.contains(group)) {
                foreign.add(group + ":" + text(d, "artifactId"));
            }
        }
        assertTrue(dependencies.getLength() > 0, "the parent manages nothing");
        assertTrue(foreign.isEmpty(), "the parent pom, the users' BOM, manages " + foreign
                + ": move them to the dependencyManagement of the module that uses them");
    }

    private static String text(Element parent, String child) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(child)) {
                return e.getTextContent().strip();
            }
        }
        return "";
    }
}
