package dev.proactor.conformance;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/** A set with O(1) add, remove and uniformly random pick, for the fault injectors to choose their victims. */
final class SoakRegistry<T> {

    private final ArrayList<T> items = new ArrayList<>();
    private final Map<T, Integer> index = new HashMap<>();

    synchronized void add(T t) {
        if (index.putIfAbsent(t, items.size()) == null) {
            items.add(t);
        }
    }

    synchronized boolean remove(T t) {
        Integer i = index.remove(t);
        if (i == null) {
            return false;
        }
        T last = items.remove(items.size() - 1);
        if (last != t) {
            items.set(i, last);
            index.put(last, i);
        }
        return true;
    }

    synchronized T random(SplittableRandom rnd) {
        return items.isEmpty() ? null : items.get(rnd.nextInt(items.size()));
    }

    synchronized int size() {
        return items.size();
    }

    synchronized List<T> snapshot() {
        return new ArrayList<>(items);
    }
}
