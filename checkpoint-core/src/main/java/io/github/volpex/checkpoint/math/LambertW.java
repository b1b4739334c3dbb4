package io.github.volpex.checkpoint.math;

/**
 * The real branches of the Lambert W function, the inverse of {@code w ↦ w·e^w}: {@link #w0(double) W₀} on
 * {@code [−1/e, ∞)} with values in {@code [−1, ∞)}, and {@link #wm1(double) W₋₁} on {@code [−1/e, 0)} with values in
 * {@code (−∞, −1]}.
 *
 * <p><b>Accuracy.</b> Every result is within one ulp of the exact value and almost always the correctly rounded
 * double, including at the branch point {@code −1/e}, where implementations that first form {@code z + 1/e} in one
 * rounded double lose up to 10⁷ ulps. Callers that know the offset {@code d = z + 1/e} exactly use
 * {@link #onePlusW0(double)} and {@link #onePlusWm1(double)}, which return {@code 1 + W(−1/e + d)} to within two
 * ulps of that small quantity itself, without ever rounding {@code z}.
 *
 * <p><b>Method.</b> A starting value (a series in {@code p = √(2(1 + e·z))} near the branch point, a Taylor series
 * near 0, piecewise polynomials in {@code p} in the middle range and in {@code ln|z|} for large {@code |W|}) is refined by one Halley step whose residual {@code w·e^w − z} is evaluated in double-double
 * arithmetic with {@link Math#fma}; the package documentation has the error analysis.
 *
 * <p><b>Special values.</b> NaN gives NaN; arguments below the domain give NaN; the double nearest {@code −1/e}
 * ({@code −0.36787944117144233}, a hair below the exact branch point) gives {@code −1} on both branches;
 * {@code W₀(±0) = ±0}; {@code W₀(+∞) = +∞}; {@code W₋₁(±0) = −∞}; {@code W₋₁} of a positive argument is NaN.
 *
 * <p>All methods are static, allocation-free, non-blocking and thread-safe. They rely on {@link Math#fma}, which the
 * JIT compiles to one instruction on every x86-64 processor since 2013 and on all AArch64 processors.
 *
 * @since 0.1
 */
public final class LambertW {

    /** The double nearest −1/e; it lies just below the exact branch point. */
    private static final double BRANCH_POINT_DOUBLE = -0.36787944117144233;
    /** Below this value of {@code 1 + e·z} ({@code |1 + W| ≲ 1/32}) the residual is taken from a series. */
    private static final double SERIES_MAX_OFFSET = 0x1p-11;
    /** Below this offset {@code d}, {@code 1 + W = ±p − p²/3} with {@code p = √(2e·d)} to far less than an ulp. */
    private static final double TINY_OFFSET = 0x1p-120;
    /** {@code |z|} up to which W₀ is the Taylor series at 0. */
    private static final double TAYLOR_MAX = 0x1p-8;
    /** W₀ above this argument starts from polynomials in ln z. */
    private static final double W0_POLYNOMIAL_MAX = 3.0;
    /** W₋₁ starts from polynomials in p up to this p, from polynomials in ln(−z) above it. */
    private static final double WM1_POLYNOMIAL_MAX_P = 1.25;

    private static final double INV_E_HI = 0.36787944117144233;
    private static final double INV_E_LO = -1.2428753672788363e-17;
    private static final double E_HI = 2.718281828459045;
    private static final double E_LO = 1.4456468917292502e-16;
    private static final double THIRD_HI = 0.3333333333333333;
    private static final double THIRD_LO = 1.850371707708594e-17;
    private static final double LN2_64_HI = 0x1.62e42fefa0000p-7; // 0.010830424696223417
    private static final double LN2_64_LO = 2.572804622327669e-14;
    private static final double INV_LN2_64 = 92.33248261689366;

    private static final double[] EXP2_HI = {
            1.0, 1.0108892860517005, 1.0218971486541166, 1.0330248790212284,
            1.0442737824274138, 1.0556451783605572, 1.0671404006768237, 1.0787607977571199,
            1.0905077326652577, 1.102382583307841, 1.1143867425958924, 1.1265216186082418,
            1.1387886347566916, 1.1511892299529827, 1.1637248587775775, 1.1763969916502812,
            1.189207115002721, 1.202156731452703, 1.215247359980469, 1.22848053610687,
            1.241857812073484, 1.255380757024691, 1.2690509571917332, 1.2828700160787783,
            1.2968395546510096, 1.3109612115247644, 1.3252366431597413, 1.339667524053303,
            1.3542555469368927, 1.3690024229745905, 1.383909881963832, 1.3989796725383112,
            1.4142135623730951, 1.42961333839197, 1.4451808069770467, 1.460917794180647,
            1.4768261459394993, 1.4929077282912648, 1.5091644275934228, 1.5255981507445384,
            1.5422108254079407, 1.559004400237837, 1.5759808451078865, 1.593142151342267,
            1.6104903319492543, 1.6280274218573478, 1.645755478153965, 1.6636765803267364,
            1.681792830507429, 1.7001063537185235, 1.718619298122478, 1.7373338352737062,
            1.7562521603732995, 1.7753764925265212, 1.7947090750031072, 1.8142521755003989,
            1.8340080864093424, 1.8539791250833855, 1.8741676341103, 1.8945759815869656,
            1.9152065613971474, 1.9360617934922943, 1.9571441241754002, 1.978456026387951
    };
    private static final double[] EXP2_LO = {
            0.0, -1.5234778603368577e-17, 5.109225028973444e-17, 7.600838874027088e-18,
            8.551889705537965e-17, 1.759325738772092e-18, -7.899853966841582e-17, -6.656660436056593e-17,
            -3.046782079812471e-17, 5.2660368715706944e-17, 1.0410278456845571e-16, 5.165856758795457e-17,
            8.912812676025408e-17, 3.250710218863827e-17, 3.8292048369240935e-17, 5.554203254218079e-17,
            3.982015231465646e-17, 6.644981499252301e-17, -7.712630692681488e-17, -1.89878163130253e-17,
            4.658027591836937e-17, -6.7113898212968784e-18, 2.667932131342186e-18, 1.713594918243561e-17,
            2.5382502794888315e-17, -7.181536135519454e-17, -2.8587312100388614e-17, 8.927282594831732e-17,
            7.70094837980299e-17, 9.593797919118849e-17, -6.770511658794786e-17, -9.614213209051323e-17,
            -9.667293313452913e-17, -1.2031642489053655e-17, -3.0237581349939873e-17, -5.600377186075216e-17,
            -3.483994556892796e-17, 1.4192920154284036e-17, -1.016455327754295e-16, -1.1024941712342561e-16,
            7.949834809697621e-17, 3.7812070533575275e-17, -1.0136916471278304e-17, -1.0094406542311964e-16,
            2.4707192569797888e-17, -6.712955084707084e-17, -1.0125679913674773e-16, 5.8909926967131e-17,
            8.199010020581497e-17, -8.0237193703977e-18, -1.851380418263111e-17, 3.164389299292957e-17,
            2.960140695448873e-17, 6.429731796556572e-17, 1.8227458427912087e-17, -9.969531538920349e-17,
            3.283107224245627e-17, 9.761887490727594e-17, -6.122763413004143e-17, 3.4034035352165297e-17,
            -1.0619946056195963e-16, 1.0332385960676326e-16, 8.960767791036668e-17, 4.0388753109278167e-17
    };

    // Starting polynomials, generated by checkpoint-core/tools/lambertw_fit.py: each is Σ cₖ·(p − centre)ᵏ.
    // P0A: p in [0.0, 0.5], fits ratio, max relative error 3.4e-09
    private static final double P0A_CENTRE = 0.25;
    private static final double P0A0 = 0.9251228358486348;
    private static final double P0A1 = -0.26952353061352896;
    private static final double P0A2 = 0.10643692531336767;
    private static final double P0A3 = -0.04752037123265124;
    private static final double P0A4 = 0.02269017135610573;
    private static final double P0A5 = -0.011644384801551666;
    private static final double P0A6 = 0.0059779671129327;
    // P0_TABLE: p in [0.5, 4.5) in 8 pieces of width 0.5, fits e^-W0, max relative error of W0 1.1e-08
    private static final double[] P0_TABLE = {
            1.4782744540853454, -0.989853791995436, 0.5469690334405947, -0.28272608480709877,
            0.14149697611351705, -0.07131297849589632, 0.034588339580772315,
            1.0918399752078098, -0.6009995229877922, 0.27176081395298096, -0.11470571383734365,
            0.0468110334579529, -0.01905365312455001, 0.007526111220544523,
            0.8473782005073319, -0.39659348935691485, 0.15192457699872713, -0.054227723466051696,
            0.018693760262200987, -0.006391343863621487, 0.002130215032140587,
            0.6812831437818764, -0.2776368676106714, 0.09232747846056633, -0.028565331144388414,
            0.008527628709814192, -0.0025156656034673046, 0.0007254142163710581,
            0.5624407374797473, -0.203133593980303, 0.05971466719074761, -0.016310586284405584,
            0.004295319103669483, -0.0011149478372150551, 0.00028337510998421617,
            0.47400152219922964, -0.15380435659953995, 0.040531562859193106, -0.009913197609783913,
            0.002335993607349057, -0.0005415687124834544, 0.00012307492529163618,
            0.40612396375863197, -0.11968777135321532, 0.028591494164198865, -0.006332617106302503,
            0.001350521464446971, -0.00028295956886483523, 5.815810504040663e-05,
            0.3527127966321672, -0.09524882558081872, 0.020813687450185445, -0.00421315940399525,
            0.0008207307705695072, -0.00015689460883334255, 2.9437786709722408e-05
    };
    // LARGE0_TABLE: |ln|z|| in [2^0, 2^10), one row per binade, fits W/ln|z|, max relative error 2.4e-08
    private static final double[] LARGE0_TABLE = {
            0.8433064967991153, -0.09493848405817637, 0.04071755452945424, -0.014023449442141908, 0.004684624189473476,
            -0.0015591055214249497, 0.0005006817528598046, -0.0001668801067089151, 7.702367362153258e-05, -2.567485385232138e-05,
            0.7359800188783372, -0.01590218145429666, 0.016447291393147597, -0.006715779985217258, 0.002352336973055551,
            -0.0007880594978616935, 0.0002521083133174733, -8.365968443561897e-05, 3.8517597076624325e-05, -1.2833188430399199e-05,
            0.749444033063793, 0.02287581431587215, 0.0014000236786747863, -0.002058552237666906, 0.0009724523328694225,
            -0.00037246244235917647, 0.0001266812599075981, -4.30510695372595e-05, 1.9771862038623746e-05, -6.5456524589324494e-06,
            0.810439346169704, 0.032107642095859125, -0.005447498527022933, 0.0006919617617519928, 3.0028296702015175e-05,
            -7.189650871236125e-05, 3.64308700813024e-05, -1.56639035142425e-05, 8.768974574444383e-06, -3.1327309409718777e-06,
            0.8732293032180601, 0.02707605936439347, -0.00638582818748091, 0.0015312808491097377, -0.00036074584049049414,
            8.08589770415316e-05, -1.6769791488406785e-05, 2.6922788484463893e-06, 4.775592210206335e-07, -4.418385773087995e-07,
            0.9210630368622829, 0.018939488227168202, -0.0050373895548542534, 0.0013881285234709695, -0.0003887830674454797,
            0.00010957843021833673, -3.0449513823003733e-05, 8.578733737990159e-06, -2.945453363989512e-06, 8.078916724235785e-07,
            0.952956641920167, 0.012076885980920932, -0.0034087975870366865, 0.0009962960365352577, -0.0002967318049202354,
            8.927239825783175e-05, -2.6389813668096612e-05, 8.031901478253553e-06, -3.20396459410067e-06, 9.80843241083798e-07,
            0.9727610486695403, 0.007304430125117761, -0.002133862211902127, 0.0006434556292664661, -0.00019750622475424873,
            6.120247315574261e-05, -1.8564615149988155e-05, 5.821870754730875e-06, -2.445870542008164e-06, 7.734860653613329e-07,
            0.9845440987237938, 0.004272610272746856, -0.0012761111458522649, 0.00039216832018097047, -0.00012248616979048657,
            3.857921920617845e-05, -1.186292505211263e-05, 3.777429138337107e-06, -1.627405898287357e-06, 5.223833942899692e-07,
            0.9913605300966838, 0.0024425873524951264, -0.0007408704299410567, 0.0002305765400815452, -7.282618095917565e-05,
            2.3172159461788403e-05, -7.184557410377395e-06, 2.3085054859101372e-06, -1.0090248996928977e-06, 3.265858487668016e-07
    };
    // LARGEM1_TABLE: |ln|z|| in [2^1, 2^10), one row per binade, fits W/ln|z|, max relative error 8.7e-08
    private static final double[] LARGEM1_TABLE = {
            1.5017470826305557, -0.07215333624641097, 0.006620599675493589, 0.002527609778085045, -0.002403950579610122,
            0.001348560798439105, -0.0005644244636337695, 0.0002606986061819157, -0.00022197657418866713, 9.704041972958703e-05,
            1.3484528947424366, -0.06914114664693669, 0.015482592963572815, -0.0034374993162522745, 0.0006860563317001126,
            -9.608309321421858e-05, -1.7626321526520627e-06, 1.303314509757505e-05, -1.6248969519440924e-05, 7.371596768414049e-06,
            1.2239133361822168, -0.050283697605951846, 0.012942466854678654, -0.0034886074534646347, 0.0009581359334162328,
            -0.0002642735850079459, 7.184698741275516e-05, -1.949945704153335e-05, 5.915861612947489e-06, -1.4232236220171055e-06,
            1.137797856353775, -0.033261791529077316, 0.009087359686933602, -0.002600572144206825, 0.0007629065116097911,
            -0.00022686762587684602, 6.648715877732147e-05, -2.006553551902761e-05, 7.896255620724464e-06, -2.3961588188269705e-06,
            1.0822976521890464, -0.020890225800497774, 0.005915937773803038, -0.0017462446856383246, 0.0005274931227572711,
            -0.00016142451232515066, 4.851145633405253e-05, -1.5083882020039177e-05, 6.2682093921212525e-06, -1.970656274624466e-06,
            1.048034003173869, -0.012664992619255756, 0.0036787208562977193, -0.0011082192797445842, 0.00034079364091232786,
            -0.00010599611160085675, 3.2283314841915514e-05, -1.0186248070495275e-05, 4.335166495554519e-06, -1.3824542179507226e-06,
            1.0275242068044619, -0.007476521611968442, 0.002213877660414124, -0.0006770098011112171, 0.00021085304224199177,
            -6.631631759981421e-05, 2.037923107479454e-05, -6.490963122369462e-06, 2.8026688381174357e-06, -9.011541987624455e-07,
            1.015536614180572, -0.004321898590366115, 0.0012992473333828572, -0.000401949021961384, 0.00012640490162598586,
            -4.0090440086803375e-05, 1.2401680058992777e-05, -3.977223593586182e-06, 1.7350131601803359e-06, -5.610769390875225e-07,
            1.0086619981721519, -0.002456476013287738, 0.0007474376548087168, -0.0002333697792317654, 7.395136689305791e-05,
            -2.360814573805509e-05, 7.3405163455735605e-06, -2.366580979577232e-06, 1.0405244044253262e-06, -3.3795136126206177e-07
    };
    // PMA: p in [0.0, 0.5], fits ratio, max relative error 3.7e-09
    private static final double PMA_CENTRE = 0.25;
    private static final double PMA0 = -1.0943298799154209;
    private static final double PMA1 = -0.4280533071279956;
    private static final double PMA2 = -0.23441532495664003;
    private static final double PMA3 = -0.14700481849169003;
    private static final double PMA4 = -0.09903065091876152;
    private static final double PMA5 = -0.06992871010525535;
    private static final double PMA6 = -0.054835870876710074;
    private static final double PMA7 = -0.04096252298034194;
    // PMB: p in [0.5, 0.85], fits plain, max relative error 6.7e-08
    private static final double PMB_CENTRE = 0.675;
    private static final double PMB0 = -1.900805766929278;
    private static final double PMB1 = -1.8445427800236616;
    private static final double PMB2 = -1.1790030908321758;
    private static final double PMB3 = -1.0355718105755376;
    private static final double PMB4 = -1.0347747699546155;
    private static final double PMB5 = -1.1910051683614282;
    private static final double PMB6 = -1.337299586330396;
    // PMC: p in [0.85, 1.1], fits plain, max relative error 2.5e-08
    private static final double PMC_CENTRE = 0.9750000000000001;
    private static final double PMC0 = -2.6007536746532103;
    private static final double PMC1 = -3.0191075816063684;
    private static final double PMC2 = -3.2587822329566962;
    private static final double PMC3 = -4.836412923629016;
    private static final double PMC4 = -8.113608724687177;
    private static final double PMC5 = -14.638686919569587;
    private static final double PMC6 = -31.38842740852271;
    private static final double PMC7 = -61.22835609507716;
    // PMD: p in [1.1, 1.25], fits plain, max relative error 4.4e-08
    private static final double PMD_CENTRE = 1.175;
    private static final double PMD0 = -3.3942844349006958;
    private static final double PMD1 = -5.378815363295512;
    private static final double PMD2 = -10.713578914782493;
    private static final double PMD3 = -29.287349770303535;
    private static final double PMD4 = -90.17966470253751;
    private static final double PMD5 = -299.07853621085746;
    private static final double PMD6 = -1214.9861879251005;
    private static final double PMD7 = -4359.63830533143;

    private LambertW() {
    }

    /**
     * Returns the principal branch {@code W₀(z)}: the solution {@code w ≥ −1} of {@code w·e^w = z}.
     *
     * @param z the argument; the domain is {@code [−1/e, +∞]}
     * @return {@code W₀(z)} in {@code [−1, +∞]}; NaN if {@code z} is NaN or below the domain (the double nearest
     *     {@code −1/e} gives {@code −1}); {@code ±0} for {@code ±0}; {@code +∞} for {@code +∞}
     */
    public static double w0(double z) {
        if (!(z > BRANCH_POINT_DOUBLE)) {
            return z == BRANCH_POINT_DOUBLE ? -1.0 : Double.NaN;
        }
        if (Math.abs(z) <= TAYLOR_MAX) {
            return nearZero(z);
        }
        if (z > W0_POLYNOMIAL_MAX) {
            if (z == Double.POSITIVE_INFINITY) {
                return z;
            }
            double w = startLarge(z, false);
            return w + halleyStep(w, z, 0.0);
        }
        return fromPlainArgument(z, false);
    }

    /**
     * Returns the lower branch {@code W₋₁(z)}: the solution {@code w ≤ −1} of {@code w·e^w = z}.
     *
     * @param z the argument; the domain is {@code [−1/e, 0]}
     * @return {@code W₋₁(z)} in {@code [−∞, −1]}; NaN if {@code z} is NaN, below the domain or positive (the double
     *     nearest {@code −1/e} gives {@code −1}); {@code −∞} for {@code ±0}
     */
    public static double wm1(double z) {
        if (!(z > BRANCH_POINT_DOUBLE)) {
            return z == BRANCH_POINT_DOUBLE ? -1.0 : Double.NaN;
        }
        if (z >= 0.0) {
            return z == 0.0 ? Double.NEGATIVE_INFINITY : Double.NaN;
        }
        return fromPlainArgument(z, true);
    }

    /**
     * Returns {@code 1 + W₀(−1/e + d)} from the offset {@code d} of the argument above the branch point.
     *
     * <p>Near the branch point {@code 1 + W₀} is about {@code √(2e·d)}: a caller that can form {@code d} without
     * cancellation (as {@code d = Vkμ / (e·(T_d·kμ + 1))} in the Ni–Harwood model) keeps full relative accuracy
     * here, where {@code w0(d − 1/e) + 1} would keep none.
     *
     * @param d the offset {@code z + 1/e}; the domain is {@code [0, +∞]}
     * @return {@code 1 + W₀(−1/e + d)} in {@code [0, +∞]}, within two ulps of the exact value; NaN if {@code d} is
     *     NaN or negative; {@code 0} for {@code ±0}; {@code +∞} for {@code +∞}
     */
    public static double onePlusW0(double d) {
        if (!(d > 0.0)) {
            return d == 0.0 ? 0.0 : Double.NaN;
        }
        if (d == Double.POSITIVE_INFINITY) {
            return d;
        }
        return fromOffset(d, false);
    }

    /**
     * Returns {@code 1 + W₋₁(−1/e + d)} from the offset {@code d} of the argument above the branch point.
     *
     * <p>The counterpart of {@link #onePlusW0(double)} on the lower branch, where {@code 1 + W₋₁} is about
     * {@code −√(2e·d)} near the branch point.
     *
     * @param d the offset {@code z + 1/e}; the domain is {@code [0, 1/e)}
     * @return {@code 1 + W₋₁(−1/e + d)} in {@code (−∞, 0]}, within two ulps of the exact value; NaN if {@code d} is
     *     NaN, negative or at least {@code 1/e} (then {@code z ≥ 0}); {@code 0} for {@code ±0}
     */
    public static double onePlusWm1(double d) {
        if (!(d > 0.0)) {
            return d == 0.0 ? 0.0 : Double.NaN;
        }
        if (d >= INV_E_HI) {
            // INV_E_HI exceeds 1/e, so d − 1/e > 0 here.
            return Double.NaN;
        }
        return fromOffset(d, true);
    }

    /**
     * W of a plain argument {@code z} (on the lower branch, or on the principal branch for {@code 2⁻⁸ < |z| ≤ 3}):
     * {@code 1 + e·z} is formed as a double-double; {@code 1 + hi} is exact whenever the series branch is taken.
     */
    private static double fromPlainArgument(double z, boolean lower) {
        double hi = E_HI * z;
        double lo = Math.fma(E_HI, z, -hi) + E_LO * z;
        double offset = 1.0 + hi;
        if (offset <= SERIES_MAX_OFFSET) {
            double sum = offset + lo;
            double err = twoSumError(offset, lo, sum);
            double x = startNearBranch(Math.sqrt(2.0 * sum), lower);
            return minusOnePlus(x, seriesStep(x, sum, err));
        }
        double w = start(Math.sqrt(2.0 * (offset + lo)), z, lower);
        return w + halleyStep(w, z, 0.0);
    }

    /** {@code 1 + W(−1/e + d)} for a finite offset {@code 0 < d} ({@code d < 1/e} on the lower branch). */
    private static double fromOffset(double d, boolean lower) {
        if (d < TINY_OFFSET) {
            return nearBranchPoint(d, lower);
        }
        double hi = E_HI * d;
        double lo = Math.fma(E_HI, d, -hi) + E_LO * d;
        double p = Math.sqrt(2.0 * hi);
        if (hi <= SERIES_MAX_OFFSET) {
            double x = startNearBranch(p, lower);
            return x + seriesStep(x, hi, lo);
        }
        // z = d − 1/e as a normalised double-double.
        double zh = d - INV_E_HI;
        double zl = twoSumError(d, -INV_E_HI, zh) - INV_E_LO;
        double z = zh + zl;
        zl = zl - (z - zh);
        double w = start(p, z, lower);
        return onePlus(w, halleyStep(w, z, zl));
    }

    // ---------------------------------------------------------------------------------------------------------
    // Starting values

    /** W₀ for {@code |z| ≤ 2⁻⁸}: Σ (−n)ⁿ⁻¹/n! zⁿ to z¹¹, the leading z − z² carried in double-double. */
    private static double nearZero(double z) {
        if (z == 0.0) {
            return z;
        }
        double sq = z * z;
        double sqErr = Math.fma(z, z, -sq);
        double q = 1.5 + z * (-8.0 / 3 + z * (125.0 / 24 + z * (-54.0 / 5 + z * (16807.0 / 720
                + z * (-16384.0 / 315 + z * (531441.0 / 4480 + z * (-156250.0 / 567
                + z * (2357947691.0 / 3628800))))))));
        double s = z - sq;
        double err = (z - s) - sq;
        return s + (err - sqErr + z * sq * q);
    }

    /** {@code 1 + W} for {@code p ≤ 1/2} on either branch. */
    private static double startNearBranch(double p, boolean lower) {
        return lower ? startNearBranchM1(p) : startNearBranch0(p);
    }

    /** W to about 10⁻⁷ away from the branch point and from 0 on the principal branch. */
    private static double start(double p, double z, boolean lower) {
        if (lower) {
            return p <= WM1_POLYNOMIAL_MAX_P ? startMiddleM1(p) : startLarge(z, true);
        }
        return z > W0_POLYNOMIAL_MAX ? startLarge(z, false) : startMiddle0(p, z);
    }

    /** {@code 1 + W₀} for {@code p ≤ 1/2}. */
    private static double startNearBranch0(double p) {
        double u = p - P0A_CENTRE;
        double u2 = u * u;
        return p * ((P0A0 + u * P0A1) + u2 * (P0A2 + u * P0A3) + (u2 * u2) * (P0A4 + u * P0A5 + u2 * P0A6));
    }

    /** {@code 1 + W₋₁} for {@code p ≤ 1/2}. */
    private static double startNearBranchM1(double p) {
        double u = p - PMA_CENTRE;
        double u2 = u * u;
        return p * ((PMA0 + u * PMA1) + u2 * (PMA2 + u * PMA3)
                + (u2 * u2) * ((PMA4 + u * PMA5) + u2 * (PMA6 + u * PMA7)));
    }

    /**
     * W₀ to about 10⁻⁸ for {@code p = √(2(1 + e·z))} in [0, 4.5), {@code |z| > 2⁻⁸}: above {@code p = 1/2} a table of
     * eight degree-6 pieces of {@code e^−W₀ = W₀/z}, selected by index rather than by branches.
     */
    private static double startMiddle0(double p, double z) {
        if (p <= 0.5) {
            return startNearBranch0(p) - 1.0;
        }
        int piece = (int) (2.0 * p) - 1;
        int at = 7 * piece;
        double u = p - (0.75 + 0.5 * piece);
        double u2 = u * u;
        double q = (P0_TABLE[at] + u * P0_TABLE[at + 1]) + u2 * (P0_TABLE[at + 2] + u * P0_TABLE[at + 3])
                + (u2 * u2) * (P0_TABLE[at + 4] + u * P0_TABLE[at + 5] + u2 * P0_TABLE[at + 6]);
        return z * q;
    }

    /** W₋₁ to about 10⁻⁷ for {@code p = √(2(1 + e·z))} in [0, 1.25]. */
    private static double startMiddleM1(double p) {
        if (p <= 0.5) {
            return startNearBranchM1(p) - 1.0;
        }
        if (p <= 0.85) {
            double u = p - PMB_CENTRE;
            double u2 = u * u;
            return (PMB0 + u * PMB1) + u2 * (PMB2 + u * PMB3) + (u2 * u2) * (PMB4 + u * PMB5 + u2 * PMB6);
        }
        if (p <= 1.1) {
            double u = p - PMC_CENTRE;
            double u2 = u * u;
            return (PMC0 + u * PMC1) + u2 * (PMC2 + u * PMC3) + (u2 * u2) * ((PMC4 + u * PMC5) + u2 * (PMC6 + u * PMC7));
        }
        double u = p - PMD_CENTRE;
        double u2 = u * u;
        return (PMD0 + u * PMD1) + u2 * (PMD2 + u * PMD3) + (u2 * u2) * ((PMD4 + u * PMD5) + u2 * (PMD6 + u * PMD7));
    }

    /**
     * W to about 10⁻⁷ for large {@code |W|} (W₀ above {@code z = 3}, W₋₁ above {@code z = −0.08}): with
     * {@code L = ln|z|} in the binade {@code [2ᵏ, 2ᵏ⁺¹)} of {@code |L|}, a degree-9 polynomial of {@code W/L} in
     * {@code v = |L|·2¹⁻ᵏ − 3 ∈ [−1, 1)}, one row of the table per binade.
     */
    private static double startLarge(double z, boolean lower) {
        double l = Math.log(Math.abs(z));
        double s = Math.abs(l);
        int k = Math.getExponent(s);
        double[] table = lower ? LARGEM1_TABLE : LARGE0_TABLE;
        int at = 10 * (lower ? k - 1 : k);
        double v = s * Double.longBitsToDouble((long) (1023 + 1 - k) << 52) - 3.0;
        double v2 = v * v;
        double v4 = v2 * v2;
        double h = (table[at] + v * table[at + 1]) + v2 * (table[at + 2] + v * table[at + 3])
                + v4 * ((table[at + 4] + v * table[at + 5]) + v2 * (table[at + 6] + v * table[at + 7])
                + v4 * (table[at + 8] + v * table[at + 9]));
        return l * h;
    }

    /**
     * {@code 1 + W = ±p − p²/3} with {@code p = √(2e·d)}, for {@code d < 2⁻¹²⁰} where the next term is 2⁻¹¹⁵ times
     * smaller; {@code p} is the square root of a double-double, corrected once, and {@code d} is scaled by 2⁶⁰⁰ so
     * that subnormal offsets keep their digits.
     */
    private static double nearBranchPoint(double d, boolean lower) {
        double scaled = d * 0x1p600;
        double hi = 2.0 * E_HI * scaled;
        double lo = 2.0 * (Math.fma(E_HI, scaled, -0.5 * hi) + E_LO * scaled);
        double root = Math.sqrt(hi);
        double correction = (Math.fma(-root, root, hi) + lo) / (2.0 * root);
        // p²/3 in the scaled units of root (2³⁰⁰ p): root² · 2⁻³⁰⁰ / 3.
        double square = root * root * 0x1p-300 / 3.0;
        double x = lower ? -(root + (correction + square)) : root + (correction - square);
        return x * 0x1p-300;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Refinement

    /**
     * One Halley step for {@code f(w) = w·e^w − (zh + zl)} from {@code w}, returning the correction. The residual is
     * evaluated in double-double with {@code e^w = 2^m·(eh + el)} to about 2⁻⁷⁴ relative, and scaled by {@code 2^−m}
     * so that neither {@code e^w} nor the residual overflows or underflows.
     */
    private static double halleyStep(double w, double zh, double zl) {
        double k = Math.rint(w * INV_LN2_64);
        int n = (int) k;
        double rHi = w - k * LN2_64_HI;
        double t = k * LN2_64_LO;
        double r = rHi - t;
        double rErr = twoSumError(rHi, -t, r);
        // e^r − 1 = r + r²/2 + r³·P(r), with r²/2 in double-double.
        double sq = r * r;
        double half = 0.5 * sq;
        double poly = 1.0 / 6 + r * (1.0 / 24 + r * (1.0 / 120 + r * (1.0 / 720 + r * (1.0 / 5040 + r * (1.0 / 40320)))));
        double small = 0.5 * Math.fma(r, r, -sq) + r * sq * poly + rErr * (1.0 + r);
        int j = n & 63;
        int m = n >> 6;
        double th = EXP2_HI[j];
        double tl = EXP2_LO[j];
        double a1 = th * r;
        double a2 = Math.fma(th, r, -a1);
        double b1 = th * half;
        double b2 = Math.fma(th, half, -b1);
        double h1 = th + a1;
        double l1 = a1 - (h1 - th);
        double eh = h1 + b1;
        double l2 = b1 - (eh - h1);
        double el = l1 + l2 + a2 + b2 + th * small + tl * (1.0 + r + half);
        // f·2^−m = w·(eh + el) − (zh + zl)·2^−m
        double zsh;
        double zsl;
        if (m > -1000 && m < 1000) {
            double scale = Double.longBitsToDouble((long) (1023 - m) << 52);
            zsh = zh * scale;
            zsl = zl * scale;
        } else {
            zsh = timesPowerOfTwo(zh, -m);
            zsl = timesPowerOfTwo(zl, -m);
        }
        double p1 = w * eh;
        double p2 = Math.fma(w, eh, -p1);
        double f = (p1 - zsh) + (p2 + w * el - zsl);
        double e = eh + el;
        double f1 = e * (1.0 + w);
        double f2 = e * (2.0 + w);
        return -2.0 * f * f1 / (2.0 * f1 * f1 - f * f2);
    }

    /**
     * One Halley step for {@code x = 1 + W} near the branch point, solving {@code G(x) = (x − 1)e^x + 1 = e·d} with
     * {@code G(x) = x²/2 + x³/3 + Σ_{n≥4} (n − 1)xⁿ/n!} so that nothing cancels; {@code e·d = edh + edl}. Valid for
     * {@code |x| ≤ 0.032}; returns the correction to {@code x}.
     */
    private static double seriesStep(double x, double edh, double edl) {
        double sq = x * x;
        double sqErr = Math.fma(x, x, -sq);
        double c1 = x * THIRD_HI;
        double c2 = Math.fma(x, THIRD_HI, -c1) + x * THIRD_LO;
        double e1 = sq * c1;
        double e2 = Math.fma(sq, c1, -e1) + sq * c2 + sqErr * c1;
        double rest = 1.0 / 8 + x * (1.0 / 30 + x * (1.0 / 144 + x * (1.0 / 840 + x * (1.0 / 5760
                + x * (1.0 / 45360 + x * (1.0 / 403200 + x * (1.0 / 3991680)))))));
        // Both sums of the leading terms are exact (Sterbenz): they cancel to the size of the next term.
        double lead = (0.5 * sq - edh) + e1;
        double g = lead + (0.5 * sqErr + e2 + sq * sq * rest - edl);
        double ex = 1.0 + x * (1.0 + x * (0.5 + x * (1.0 / 6 + x * (1.0 / 24 + x * (1.0 / 120)))));
        double g1 = x * ex;
        double g2 = (1.0 + x) * ex;
        return -2.0 * g * g1 / (2.0 * g1 * g1 - g * g2);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Exact arithmetic helpers

    /** The rounding error of {@code sum = fl(a + b)} (Knuth's TwoSum). */
    private static double twoSumError(double a, double b, double sum) {
        double bb = sum - a;
        return (a - (sum - bb)) + (b - bb);
    }

    /** {@code (x − 1) + correction}, rounded once, for {@code |x| ≤ 1}. */
    private static double minusOnePlus(double x, double correction) {
        double s = x - 1.0;
        double err = x - (s + 1.0);
        return s + (err + correction);
    }

    /** {@code (1 + w) + correction}, rounded once. */
    private static double onePlus(double w, double correction) {
        double s = 1.0 + w;
        return s + (twoSumError(1.0, w, s) + correction);
    }

    /** {@code x·2^k} for {@code −1022 ≤ k ≤ 2046}, exact unless the result is subnormal. */
    private static double timesPowerOfTwo(double x, int k) {
        if (k > 1000) {
            return x * 0x1p1000 * Double.longBitsToDouble((long) (k - 1000 + 1023) << 52);
        }
        return x * Double.longBitsToDouble((long) (k + 1023) << 52);
    }
}
