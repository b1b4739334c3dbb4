package io.github.volpex.erasure;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Optional;

/**
 * Finds the optional {@code VectorKernel}: present in the jar, compiled against {@code jdk.incubator.vector}, and
 * usable only when the JVM was started with that module ({@code --add-modules jdk.incubator.vector}), which is how a
 * user opts in. Without it nothing from the incubator module is loaded and {@link MatrixKernel} serves.
 *
 * <p>Looked up once, when this class initialises: the boot layer's modules do not change while the JVM runs.
 */
final class VectorKernels {

    /** The incubator module's name. */
    static final String MODULE = "jdk.incubator.vector";

    private static final MethodHandle CONSTRUCTOR = find();

    private VectorKernels() {
    }

    /** Whether kernels with multiplications use the Vector API in this JVM. */
    static boolean available() {
        return CONSTRUCTOR != null;
    }

    /**
     * The Vector API kernel for a matrix.
     *
     * @throws IllegalStateException if it is not {@linkplain #available() available}
     */
    static Kernel create(byte[][] coefficients) {
        if (CONSTRUCTOR == null) {
            throw new IllegalStateException("the Vector API kernel needs --add-modules " + MODULE);
        }
        try {
            return (Kernel) CONSTRUCTOR.invoke(coefficients);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    private static MethodHandle find() {
        Optional<Module> vector = ModuleLayer.boot().findModule(MODULE);
        if (vector.isEmpty()) {
            return null;
        }
        try {
            // As a named module this one does not read the incubator module unless told to (it only may).
            VectorKernels.class.getModule().addReads(vector.get());
            Class<?> type = Class.forName(VectorKernels.class.getPackageName() + ".VectorKernel", true,
                    VectorKernels.class.getClassLoader());
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            boolean supported = (boolean) lookup.findStatic(type, "supported", MethodType.methodType(boolean.class))
                    .invoke();
            return supported
                    ? lookup.findConstructor(type, MethodType.methodType(void.class, byte[][].class))
                            .asType(MethodType.methodType(Kernel.class, byte[][].class))
                    : null;
        } catch (RuntimeException | LinkageError | ReflectiveOperationException e) {
            // A jar without the optional class, or an incubator API that changed shape: the scalar kernel serves.
            return null;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }
}
