package io.github.volpex.benchmarks.checkpoint;

/**
 * The baseline of {@link LambertWBenchmark}: {@code checkpoint-core}'s {@code LambertW} as it was before its starts
 * moved to finer tables and its Halley step to a certified Newton step (commit 961862f), copied unchanged but for
 * its name. Within one ulp and almost always correctly rounded; not used anywhere else.
 */
final class LambertWPrevious {


    /** The double nearest −1/e; it lies just below the exact branch point. */
    private static final double BRANCH_POINT_DOUBLE = -0.36787944117144233;
    /** Below this value of {@code 1 + e·z} ({@code |1 + W| ≲ 1/32}) the residual is taken from a series. */
    private static final double SERIES_MAX_OFFSET = 0x1p-11;
    /** The same bound on a plain argument: {@code (2⁻¹¹ − 1)/e}. */
    private static final double SERIES_MAX_ARGUMENT = (SERIES_MAX_OFFSET - 1.0) * 0.36787944117144233;
    /** Below this offset {@code d}, {@code 1 + W = ±p − p²/3} with {@code p = √(2e·d)} to far less than an ulp. */
    private static final double TINY_OFFSET = 0x1p-120;
    /** {@code |z|} up to which W₀ is the Taylor series at 0. */
    private static final double TAYLOR_MAX = 0x1p-8;
    /** W₀ above this argument starts from polynomials in ln z. */
    private static final double W0_MIDDLE_MAX = 3.0;
    /** W₋₁ starts from polynomials in {@code d = z + 1/e} below this offset, in ln(−z) above it. */
    private static final double WM1_MIDDLE_MAX_OFFSET = 0.25;

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

    // Starting polynomials, generated by checkpoint-core/tools/lambertw_fit.py.
    // P0A: p in [0.0, 0.5], fits ratio, max relative error 3.4e-09
    private static final double P0A_CENTRE = 0.25;
    private static final double P0A0 = 0.9251228358486348;
    private static final double P0A1 = -0.26952353061352896;
    private static final double P0A2 = 0.10643692531336767;
    private static final double P0A3 = -0.04752037123265124;
    private static final double P0A4 = 0.02269017135610573;
    private static final double P0A5 = -0.011644384801551666;
    private static final double P0A6 = 0.0059779671129327;
    // MIDDLE0_TABLE: d = z + 1/e in [2^-13, 2^2), two pieces per binade, fits e^-W, max relative error of W 3.3e-08
    private static final double[] MIDDLE0_TABLE = {
            2.641827589179487, -244.63674159520357, 419682.16599068383, -1376061490.459783, 5636920132626.234,
            -2.697936634733459e+16, 1.3307755756659232e+20,
            2.628207952454087, -204.98319796679672, 253204.2608226144, -593398364.4948733, 1736587525638.857,
            -5813809870739763.0, 2.0448952676598632e+19,
            2.611202338940687, -169.6569288491259, 148162.78849411695, -243124608.89756185, 498076451876.81573,
            -1192058596763142.0, 2.940103356379519e+18,
            2.592344407839242, -141.6657711397049, 89341.06429416321, -104820106.94093321, 153424473043.75818,
            -256853820590202.66, 4.517490315963988e+17,
            2.568889664231143, -116.74572357427887, 52236.27829277847, -42932724.07702549, 43995652918.37262,
            -52658018133903.72, 6.494462888042533e+16,
            2.5429984291701935, -97.01795032861925, 31465.714733083085, -18502081.123060297, 13548666613.340439,
            -11344146644438.285, 9977339496045376.0,
            2.5109686959385846, -79.4763051233365, 18370.29602766996, -7573405.625465695, 3883687669.6748085,
            -2325059793937.7744, 1434068666949865.2,
            2.4758328810092847, -65.6127430178108, 11044.98373117864, -3261097.387764711, 1195389108.4409444,
            -500702827185.1702, 220249865610128.28,
            2.4326858843638046, -53.31303000659807, 6431.111707681136, -1333222.9723240994, 342394035.32660365,
            -102567929891.44574, 31643908186145.953,
            2.3857576337420485, -43.621225472700885, 3853.7911534616123, -573167.6937904163, 105282157.27839656,
            -22071803818.310425, 4857199409029.4,
            2.3287011626245704, -35.05639852590564, 2233.5507448976728, -233779.54470277097, 30110961.568978205,
            -4516626162.075854, 697272307504.7068,
            2.2673529922655002, -28.342117912646643, 1330.8627755030557, -100202.86067394831, 9240735.507284207,
            -970538911.6611178, 106906754935.98668,
            2.1937477078369603, -22.447694493481688, 765.4020955086361, -40693.805899413754, 2635326.1042531766,
            -198199386.49353412, 15322126326.515726,
            2.1157947388480434, -17.865652728883074, 451.8839975472304, -17347.432527416353, 805773.7831662616,
            -42470760.522284254, 2344017454.3738666,
            2.0238695441158843, -13.88544515369034, 256.73951331495806, -6991.3643599118595, 228575.59275533975,
            -8639514.257428009, 334902965.3243553,
            1.9283909189854378, -10.831748845817678, 149.45134790671483, -2952.538397310173, 69420.7315945926,
            -1841645.8065225137, 51018765.807936095,
            1.8182359979028908, -8.221115813638981, 83.38962659231407, -1174.8594603544996, 19507.722459992237,
            -371965.7344665434, 7246844.128851936,
            1.7065643650164308, -6.256177862841557, 47.56850436916152, -488.7295482619645, 5856.609602695816,
            -78551.55824501843, 1095475.523474303,
            1.5811290028839269, -4.613675788237939, 25.88503496533843, -190.67679991444615, 1620.1891847550648,
            -15670.143013481236, 153989.56245149436,
            1.457611287342658, -3.4092223890974385, 14.371373319002803, -77.56573785902837, 477.5446570209723,
            -3257.813075788011, 22969.123770090762,
            1.3231541123400001, -2.4316425891925384, 7.57217840022913, -29.428064310307622, 128.99904331442187,
            -637.1302730022386, 3173.272631970247,
            1.1950923377426605, -1.7379978094924475, 4.065381159318244, -11.614204193243706, 37.02067758585409,
            -129.3233089339342, 463.377042951205,
            1.0604880600143511, -1.1948059691393713, 2.0611985060823708, -4.250151905811512, 9.677192566370834,
            -24.573188549676175, 62.36116089335976,
            0.9368571013491506, -0.8239590167245532, 1.0648129585158126, -1.6159879876970475, 2.6818407230908403,
            -4.825666367057956, 8.83270246342887,
            0.811646081507065, -0.5450277952488043, 0.5173906453197142, -0.566773157500041, 0.6729774461834082,
            -0.8831189451002974, 1.1471788954465976,
            0.7008737604743979, -0.3624126820389284, 0.25652791015813764, -0.2066483970650353, 0.17896100649032667,
            -0.16647973480794812, 0.15624501587985504,
            0.5927911008593216, -0.23074317287694093, 0.11930474090744544, -0.06923535227664498, 0.04289140053256737,
            -0.029155158644925117, 0.0194370517117488,
            0.5006172643799645, -0.14812678925789052, 0.056781464401968594, -0.0241718813441426, 0.01091136665612938,
            -0.00525132975417815, 0.0025308112675575933,
            0.4138222100435455, -0.09097776334018501, 0.025314117278879437, -0.007737412748309168,
            0.0024943761390641707, -0.0008777228067572046, 0.00030038688965066724,
            0.3422905619666208, -0.05654318200058156, 0.011594253777913179, -0.0025908494823935167,
            0.0006073549938621887, -0.00015093470455649447, 3.7321724782552365e-05
    };
    // MIDDLEM1_TABLE: d = z + 1/e in [2^-13, 2^-2), two pieces per binade, fits e^-W, max relative error of W 7.4e-08
    private static final double[] MIDDLEM1_TABLE = {
            2.798496193645975, 269.29122135746684, -419602.73050583596, 1376585545.6286178, -5635711524348.518,
            2.5852817343202236e+16, -1.3394375550341199e+20, 6.918954864312849e+23,
            2.813620921632807, 229.64748271726154, -253124.39290427367, 593455896.1144084, -1736493613421.5452,
            5690685222112334.0, -2.0516218082872648e+19, 7.558286436101183e+22,
            2.832885288399451, 194.33581354448216, -148082.97075639214, 243217434.0799465, -497969637494.6241,
            1142278937172572.8, -2.9592414530241587e+18, 7.643325541970256e+21,
            2.8547569759227662, 166.36422799102104, -89261.02114767487, 104830473.34280089, -153416173099.11768,
            251413544357330.28, -4.5323514326916736e+17, 8.349093308009677e+20,
            2.882736828475546, 141.47349587450364, -52156.14385737744, 42949327.343499936, -43986213452.87875,
            50458686900840.51, -6.536742107829175e+16, 8.442306572203798e+19,
            2.914669907737231, 121.7849467141572, -31385.354854631478, 18504112.253112674, -13547932606.063976,
            11103816656989.268, -1.0010166849268396e+16, 9.220752446834157e+18,
            2.9557803767512816, 104.30224113418025, -18289.684361954838, 7576539.285712728, -3882853094.097681,
            2227918623206.7593, -1443406553075135.5, 9.322102939014596e+17,
            3.0030574932544365, 90.5176127271448, -10963.998075216386, 3261657.7236453863, -1195323624.0658388,
            490090333376.40094, -220974752201028.4, 1.0179254784006304e+17,
            3.0644889041304593, 78.33691461915296, -6349.592088053684, 1333979.795772545, -342319682.0626227,
            98279832634.55562, -31850045929742.656, 1.028763459753444e+16,
            3.1359325363751163, 68.80506208553952, -3771.5394582699496, 573472.7072118124, -105275708.54464895,
            21603560176.43891, -4873195165827.436, 1122825846072670.0,
            3.230056676574801, 60.4828130079528, -2150.1960954249853, 234123.1367321192, -30103718.743784204,
            4327556331.432084, -701818447911.5818, 113401336708551.92,
            3.3413857152842303, 54.09707938139227, -1246.002964796646, 100472.17991414337, -9239462.72091723,
            949914434.3954709, -107259237551.3881, 12365419532103.555,
            3.4911799333386453, 48.7066359601498, -678.2220733464671, 40978.34373292155, -2633951.697408372,
            189884026.2981113, -15422186754.754843, 1247198615905.572,
            3.673053400312003, 44.81819527585157, -361.47953396974367, 17630.76244758002, -804879.3413372946,
            41567528.26704606, -2351756714.4683156, 135747011885.10443,
            3.926065115973071, 41.927114834467524, -161.20487471139577, 7296.565551581769, -227597.3826969486,
            8278015.108599389, -337088920.7863726, 13656264326.737608,
            4.246598064206986, 40.4233560499386, -46.47464008935165, 3286.0594909857127, -68371.33062156133,
            1805341.39619859, -51178268.68769313, 1481161899.6633496,
            4.718228057408051, 40.37056755377918, 32.21810088038764, 1562.338982055, -18246.68334943189,
            360158.3917585626, -7281907.164011929, 148311751.6971491,
            5.362014611952605, 42.32226962677692, 88.18595020144528, 965.1792523754382, -4233.639899105931,
            82283.99430037293, -1081075.1748318095, 16035483.574833805,
            6.413985921493892, 47.92094395148193, 149.50576612378475, 854.511693264957, 820.2816338680149,
            23823.693041879276, -123177.11937284317, 1698388.3818628872,
            8.085015473803587, 59.96947814202365, 240.77388806101135, 1156.444598027292, 3959.1737150582658,
            21156.412604645822, 49619.344392770705, 458498.1462258971,
            11.56890490962927, 92.41015742821399, 483.32498491862384, 2552.0947887925445, 12493.349244474499,
            62917.84496268986, 316347.0879682355, 1569914.180379513,
            20.132367397827338, 202.42041784039748, 1527.0609857228599, 11092.474881775248, 78080.79745929764,
            545474.6091344841, 4159325.579459919, 28629698.92006223
    };
    // LARGE0_TABLE: |ln|z|| in [2^0, 2^10), one row per binade, fits W/ln|z|, max relative error 2.4e-08
    private static final double[] LARGE0_TABLE = {
            0.8433064967991153, -0.09493848405817637, 0.04071755452945424, -0.014023449442141908, 0.004684624189473476,
            -0.0015591055214249497, 0.0005006817528598046, -0.0001668801067089151, 7.702367362153258e-05,
            -2.567485385232138e-05,
            0.7359800188783372, -0.01590218145429666, 0.016447291393147597, -0.006715779985217258, 0.002352336973055551,
            -0.0007880594978616935, 0.0002521083133174733, -8.365968443561897e-05, 3.8517597076624325e-05,
            -1.2833188430399199e-05,
            0.749444033063793, 0.02287581431587215, 0.0014000236786747863, -0.002058552237666906, 0.0009724523328694225,
            -0.00037246244235917647, 0.0001266812599075981, -4.30510695372595e-05, 1.9771862038623746e-05,
            -6.5456524589324494e-06,
            0.810439346169704, 0.032107642095859125, -0.005447498527022933, 0.0006919617617519928,
            3.0028296702015175e-05, -7.189650871236125e-05, 3.64308700813024e-05, -1.56639035142425e-05,
            8.768974574444383e-06, -3.1327309409718777e-06,
            0.8732293032180601, 0.02707605936439347, -0.00638582818748091, 0.0015312808491097377,
            -0.00036074584049049414, 8.08589770415316e-05, -1.6769791488406785e-05, 2.6922788484463893e-06,
            4.775592210206335e-07, -4.418385773087995e-07,
            0.9210630368622829, 0.018939488227168202, -0.0050373895548542534, 0.0013881285234709695,
            -0.0003887830674454797, 0.00010957843021833673, -3.0449513823003733e-05, 8.578733737990159e-06,
            -2.945453363989512e-06, 8.078916724235785e-07,
            0.952956641920167, 0.012076885980920932, -0.0034087975870366865, 0.0009962960365352577,
            -0.0002967318049202354, 8.927239825783175e-05, -2.6389813668096612e-05, 8.031901478253553e-06,
            -3.20396459410067e-06, 9.80843241083798e-07,
            0.9727610486695403, 0.007304430125117761, -0.002133862211902127, 0.0006434556292664661,
            -0.00019750622475424873, 6.120247315574261e-05, -1.8564615149988155e-05, 5.821870754730875e-06,
            -2.445870542008164e-06, 7.734860653613329e-07,
            0.9845440987237938, 0.004272610272746856, -0.0012761111458522649, 0.00039216832018097047,
            -0.00012248616979048657, 3.857921920617845e-05, -1.186292505211263e-05, 3.777429138337107e-06,
            -1.627405898287357e-06, 5.223833942899692e-07,
            0.9913605300966838, 0.0024425873524951264, -0.0007408704299410567, 0.0002305765400815452,
            -7.282618095917565e-05, 2.3172159461788403e-05, -7.184557410377395e-06, 2.3085054859101372e-06,
            -1.0090248996928977e-06, 3.265858487668016e-07
    };
    // LARGEM1_TABLE: |ln|z|| in [2^1, 2^10), one row per binade, fits W/ln|z|, max relative error 8.7e-08
    private static final double[] LARGEM1_TABLE = {
            1.5017470826305557, -0.07215333624641097, 0.006620599675493589, 0.002527609778085045, -0.002403950579610122,
            0.001348560798439105, -0.0005644244636337695, 0.0002606986061819157, -0.00022197657418866713,
            9.704041972958703e-05,
            1.3484528947424366, -0.06914114664693669, 0.015482592963572815, -0.0034374993162522745,
            0.0006860563317001126, -9.608309321421858e-05, -1.7626321526520627e-06, 1.303314509757505e-05,
            -1.6248969519440924e-05, 7.371596768414049e-06,
            1.2239133361822168, -0.050283697605951846, 0.012942466854678654, -0.0034886074534646347,
            0.0009581359334162328, -0.0002642735850079459, 7.184698741275516e-05, -1.949945704153335e-05,
            5.915861612947489e-06, -1.4232236220171055e-06,
            1.137797856353775, -0.033261791529077316, 0.009087359686933602, -0.002600572144206825,
            0.0007629065116097911, -0.00022686762587684602, 6.648715877732147e-05, -2.006553551902761e-05,
            7.896255620724464e-06, -2.3961588188269705e-06,
            1.0822976521890464, -0.020890225800497774, 0.005915937773803038, -0.0017462446856383246,
            0.0005274931227572711, -0.00016142451232515066, 4.851145633405253e-05, -1.5083882020039177e-05,
            6.2682093921212525e-06, -1.970656274624466e-06,
            1.048034003173869, -0.012664992619255756, 0.0036787208562977193, -0.0011082192797445842,
            0.00034079364091232786, -0.00010599611160085675, 3.2283314841915514e-05, -1.0186248070495275e-05,
            4.335166495554519e-06, -1.3824542179507226e-06,
            1.0275242068044619, -0.007476521611968442, 0.002213877660414124, -0.0006770098011112171,
            0.00021085304224199177, -6.631631759981421e-05, 2.037923107479454e-05, -6.490963122369462e-06,
            2.8026688381174357e-06, -9.011541987624455e-07,
            1.015536614180572, -0.004321898590366115, 0.0012992473333828572, -0.000401949021961384,
            0.00012640490162598586, -4.0090440086803375e-05, 1.2401680058992777e-05, -3.977223593586182e-06,
            1.7350131601803359e-06, -5.610769390875225e-07,
            1.0086619981721519, -0.002456476013287738, 0.0007474376548087168, -0.0002333697792317654,
            7.395136689305791e-05, -2.360814573805509e-05, 7.3405163455735605e-06, -2.366580979577232e-06,
            1.0405244044253262e-06, -3.3795136126206177e-07
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

    private LambertWPrevious() {
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
        if (z > W0_MIDDLE_MAX) {
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
        if (z <= SERIES_MAX_ARGUMENT) {
            double hi = E_HI * z;
            double lo = Math.fma(E_HI, z, -hi) + E_LO * z;
            double offset = 1.0 + hi;
            double sum = offset + lo;
            double err = twoSumError(offset, lo, sum);
            double x = startNearBranch(Math.sqrt(2.0 * sum), lower);
            return minusOnePlus(x, seriesStep(x, sum, err));
        }
        // Away from the branch point d = z + 1/e only seeds the start: one rounding is harmless.
        double w = start(z + INV_E_HI, z, lower);
        return w + halleyStep(w, z, 0.0);
    }

    /** {@code 1 + W(−1/e + d)} for a finite offset {@code 0 < d} ({@code d < 1/e} on the lower branch). */
    private static double fromOffset(double d, boolean lower) {
        if (d < TINY_OFFSET) {
            return nearBranchPoint(d, lower);
        }
        double hi = E_HI * d;
        if (hi <= SERIES_MAX_OFFSET) {
            double lo = Math.fma(E_HI, d, -hi) + E_LO * d;
            double x = startNearBranch(Math.sqrt(2.0 * hi), lower);
            return x + seriesStep(x, hi, lo);
        }
        // z = d − 1/e as a normalised double-double.
        double zh = d - INV_E_HI;
        double zl = twoSumError(d, -INV_E_HI, zh) - INV_E_LO;
        double z = zh + zl;
        zl = zl - (z - zh);
        double w = start(d, z, lower);
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

    /**
     * W to about 10⁻⁷ away from the branch point (and from 0 on the principal branch), from {@code z} and an
     * approximation {@code d} of {@code z + 1/e}.
     */
    private static double start(double d, double z, boolean lower) {
        if (lower) {
            return d < WM1_MIDDLE_MAX_OFFSET ? startMiddle(d, z, MIDDLEM1_TABLE, true) : startLarge(z, true);
        }
        return z > W0_MIDDLE_MAX ? startLarge(z, false) : startMiddle(d, z, MIDDLE0_TABLE, false);
    }

    /**
     * W in the middle range from {@code d = z + 1/e} in {@code [2⁻¹³, 4)} without a square root: the exponent and
     * leading mantissa bit of {@code d} select a piece ({@code [1, 1.5)·2ᵏ} or {@code [1.5, 2)·2ᵏ}) and its centre,
     * and the piece's polynomial approximates {@code e^−W = W/z}, so {@code W = z·q} keeps its relative accuracy where
     * it vanishes. Degree 6 on the principal branch, 7 on the lower one.
     */
    private static double startMiddle(double d, double z, double[] table, boolean lower) {
        long bits = Double.doubleToRawLongBits(d);
        int piece = (int) (bits >>> 51) - 2 * (1023 - 13);
        double u = d - Double.longBitsToDouble((bits & 0xFFF8_0000_0000_0000L) | 0x0004_0000_0000_0000L);
        double u2 = u * u;
        double q;
        if (lower) {
            int at = 8 * piece;
            q = (table[at] + u * table[at + 1]) + u2 * (table[at + 2] + u * table[at + 3])
                    + (u2 * u2) * ((table[at + 4] + u * table[at + 5]) + u2 * (table[at + 6] + u * table[at + 7]));
        } else {
            int at = 7 * piece;
            q = (table[at] + u * table[at + 1]) + u2 * (table[at + 2] + u * table[at + 3])
                    + (u2 * u2) * (table[at + 4] + u * table[at + 5] + u2 * table[at + 6]);
        }
        return z * q;
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
        double poly = (1.0 / 6 + r * (1.0 / 24)) + sq * (1.0 / 120 + r * (1.0 / 720))
                + (sq * sq) * (1.0 / 5040 + r * (1.0 / 40320));
        double small = 0.5 * Math.fma(r, r, -sq) + r * sq * poly + rErr * (1.0 + r);
        return halleyFinish(w, zh, zl, n, r, half, small);
    }

    /**
     * The rest of {@link #halleyStep}, split off so that each part stays small enough for the JIT to inline: given
     * {@code e^r − 1 = r + half + small}, forms {@code e^w = 2^m·2^{j/64}·e^r} and the residual, and returns the
     * Halley correction.
     */
    private static double halleyFinish(double w, double zh, double zl, int n, double r, double half, double small) {
        int j = n & 63;
        int m = n >> 6;
        double th = EXP2_HI[j];
        double tl = EXP2_LO[j];
        // e^w·2^−m to double precision, for the derivatives: its reciprocal is under way while the residual is formed.
        double e = th + th * (r + (half + small));
        double onePlusW = 1.0 + w;
        double inverse = 1.0 / (e * onePlusW);
        // e^w·2^−m = eh + el to about 2^−77.
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
        // Halley: δ = −g / (1 − g·f''/(2f')) with g = f/f' and f''/f' = (2 + w)/(1 + w); since |g| ≲ 10⁻⁷,
        // −g(1 + g·f''/(2f')) is the same to O(g³).
        double g = f * inverse;
        return -g * (1.0 + 0.5 * g * (2.0 + w) * (e * inverse));
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
