package io.github.volpex.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ScaleTest {

    private String saved;

    @BeforeEach
    void save() {
        saved = System.getProperty(Scale.PROPERTY);
    }

    @AfterEach
    void restore() {
        if (saved == null) {
            System.clearProperty(Scale.PROPERTY);
        } else {
            System.setProperty(Scale.PROPERTY, saved);
        }
    }

    @Test
    void reduced_unless_full_is_asked_for() {
        System.clearProperty(Scale.PROPERTY);
        assertFalse(Scale.full());
        assertEquals(10, Scale.of(10, 1000));
        System.setProperty(Scale.PROPERTY, "ci");
        assertFalse(Scale.full());
        System.setProperty(Scale.PROPERTY, " full ");
        assertTrue(Scale.full());
        assertEquals(1000, Scale.of(10, 1000));
    }

    @Test
    void any_other_value_is_refused_with_the_value() {
        System.setProperty(Scale.PROPERTY, "huge");
        assertEquals("volpex.scale must be ci or full: \"huge\"",
                assertThrows(IllegalArgumentException.class, Scale::full).getMessage());
    }
}
