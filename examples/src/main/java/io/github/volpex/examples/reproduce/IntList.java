package io.github.volpex.examples.reproduce;

import java.util.Arrays;

/** A growable list of {@code int}s with swap-removal, for simulation bookkeeping. */
final class IntList {

    private int[] values;
    private int size;

    IntList(int capacity) {
        values = new int[Math.max(capacity, 4)];
    }

    int size() {
        return size;
    }

    int get(int index) {
        if (index >= size) {
            throw new IndexOutOfBoundsException(index);
        }
        return values[index];
    }

    void add(int value) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = value;
    }

    /** Removes the element at {@code index} by moving the last element there; returns the moved element or -1. */
    int swapRemove(int index) {
        if (index >= size) {
            throw new IndexOutOfBoundsException(index);
        }
        size--;
        if (index == size) {
            return -1;
        }
        values[index] = values[size];
        return values[index];
    }

    void clear() {
        size = 0;
    }
}
