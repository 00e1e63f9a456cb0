package naivebayes

// The Gaussian scores of a row x against class k need the quadratic form
//
//	q_k(x) = Σ_j h_kj (x_j − μ_kj)²
//
// for every class. quadRows computes it for consecutive rows against all K
// classes. The amd64 build runs it as AVX2/FMA assembly where the
// processor has both (gaussian_kernel_amd64.s): one row at a time against
// four classes at a time, the row's elements loaded once per four
// classes, μ and h read from a copy packed in the order the kernel reads
// them (pack); with AVX-512, two classes to a vector, the same operations
// lane for lane (the same bits) in half the instructions. quadRowsGo is
// the reference and the fallback.
//
// Both keep the form (x_j − μ_kj)² h_kj: expanding it into
// x_j² − 2μ_kj x_j + μ_kj² would cancel when |μ_kj| ≫ σ_kj. Both sum in
// the same order, four partial sums s_l over the features j ≡ l (mod 4)
// added as (s_0 + s_1) + (s_2 + s_3); the assembly fuses each product
// with its addition (e·(e·h) + s rounded once), so the two differ in the
// last bits.

// quadBlock is the size of the scratch buffer of quadratic forms that
// addLogLikelihood fills for a block of rows at a time (on the stack).
const quadBlock = 1024

// pack sets the layouts of the assembly kernels. The AVX2 kernel takes
// the classes in groups of four, classes 4g … 4g+3 in group g except that
// the last group is K−4 … K−1 when 4 does not divide K ≥ 4 (it overlaps
// the one before and computes its shared classes again), and a single
// group padded with classes of μ = h = 0 when K < 4. For each group and
// each block of four features (the last one padded with μ = h = 0),
// packed holds the 32 values μ_c, h_c of the group's four classes c in
// turn; group g's forms are written at min(4g, K − 4) of a row of q.
//
// The AVX-512 kernel takes the classes in pairs, ⌈K/2⌉ of them (the last
// padded when K is odd), two pairs to a group and, when their number is
// odd, the last pair alone (half512): no class is computed twice, its
// forms written at 4g (2·groups512 for the last pair). For each block of
// four features, packed512 holds a group's μ and h of the classes 0 and
// 1, then of 2 and 3 (each 8 values: the four features of the first
// class, then of the second), 32 values; after the groups' blocks, the
// last pair's μ and h, 16 values a block. The rows of q have stride
// max(2⌈K/2⌉, 4), room for both.
func (g *gaussianFamily) pack() {
	K, D := g.k, g.d
	pairs := (K + 1) / 2
	g.stride = max(2*pairs, 4)
	g.groups = (K + 3) / 4
	g.lastBase = max(K-4, 0)
	g.groups512, g.half512 = pairs/2, pairs%2
	blocks := (D + 3) / 4
	g.packed = make([]float64, g.groups*blocks*32)
	g.packed512 = make([]float64, (g.groups512*32+g.half512*16)*blocks)
	// put512 places μ_kj and h_kj of class k, the c-th of its group of
	// width classes, for feature j = 4b + l at the block's offset.
	put512 := func(k, c, width, block, l, j int) {
		p5 := g.packed512[block : block+8*width]
		p5[16*(c/2)+4*(c%2)+l] = g.mu[k*D+j]
		p5[16*(c/2)+8+4*(c%2)+l] = g.h[k*D+j]
	}
	for b := range blocks {
		for l := range 4 {
			j := 4*b + l
			if j >= D {
				continue
			}
			for gr := range g.groups {
				base := min(4*gr, g.lastBase)
				p := g.packed[(gr*blocks+b)*32 : (gr*blocks+b+1)*32]
				for c := range min(4, K-base) {
					p[8*c+l] = g.mu[(base+c)*D+j]
					p[8*c+4+l] = g.h[(base+c)*D+j]
				}
			}
			for k := range K {
				gr, c := k/4, k%4
				if gr < g.groups512 {
					put512(k, c, 4, (gr*blocks+b)*32, l, j)
				} else {
					put512(k, c, 2, g.groups512*blocks*32+b*16, l, j)
				}
			}
		}
	}
}

// quadRowsGo is the portable quadRows: q[r·stride + k] = q_k(x_r) for
// every row x_r of x (len(x)/D rows) and class k.
func quadRowsGo(q, x []float64, g *gaussianFamily) {
	D := g.d
	for r := range len(x) / D {
		xr := x[r*D : (r+1)*D]
		qr := q[r*g.stride:][:g.k]
		for k := range qr {
			qr[k] = quadratic(xr, g.mu[k*D:(k+1)*D], g.h[k*D:(k+1)*D])
		}
	}
}

// quadratic returns Σ_j h_j (x_j − μ_j)² in four partial sums s_l over
// j ≡ l (mod 4), added as (s_0 + s_1) + (s_2 + s_3).
func quadratic(x, mu, h []float64) float64 {
	mu, h = mu[:len(x)], h[:len(x)]
	var s [4]float64
	j := 0
	for ; j+4 <= len(x); j += 4 {
		xs, ms, hs := x[j:j+4:j+4], mu[j:j+4:j+4], h[j:j+4:j+4]
		e0, e1, e2, e3 := xs[0]-ms[0], xs[1]-ms[1], xs[2]-ms[2], xs[3]-ms[3]
		s[0] += e0 * hs[0] * e0
		s[1] += e1 * hs[1] * e1
		s[2] += e2 * hs[2] * e2
		s[3] += e3 * hs[3] * e3
	}
	for l := range len(x) - j {
		e := x[j+l] - mu[j+l]
		s[l] += e * h[j+l] * e
	}
	return (s[0] + s[1]) + (s[2] + s[3])
}
