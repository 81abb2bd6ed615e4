#!/usr/bin/env python3
"""A PyTorch re-implementation of the GeoMix authors' main_exp and hetero training (WtaoZhao/geomix:
src/main_exp/models.py, trainer.py, main.py and their src/hetero counterparts),
to check our Go numbers against the reference algorithm in the reference framework.

It reads a data set exported by `go run ./reproduce datasets --names D --export DIR` (the arrays our
trainers see: features, edges, labels, splits) and trains the authors' GCN (bias before propagation,
BatchNorm1d, ReLU, dropout; or the hetero code's PyG GCNConv with --backbone gcnconv) plainly or
with GeoMix-I, -II or -III (with --use_weight, as every script row; --frozen_attention for hetero),
the pseudo-labels of the current model in train mode (with --label_grad their gradient flows), the
loss CE + soft-CE on every non-train node, torch's Adam with coupled weight decay created once and
carried across runs (--reset_adam re-creates it, as our plain baselines do), evaluation every epoch
and the test accuracy at the first best validation accuracy (hetero: with --patience 200).

Flags carry the reference's argparse names, so a row of its aug_gcn.sh reads the same. One
difference in arithmetic, not in the maths: the mixing runs on X's projections (X W, X W_q, X W_k)
instead of on X, which is exact because every mixing map is linear in its input (as in the Go
trainer); the rounding differs from the reference's. Runs on CPU, float32.

With --bench E it trains no runs but times E epochs on run 0's split at each of --bench_threads,
in turns, and prints their medians and the peak RSS as one JSON object (`reproduce bench
--against-torch` runs it beside our trainer).

Usage: python3 geomix_ref.py --npz DIR/citeseer.npz --method geomix3 --lr 0.1 ... (see README.md)
"""
import argparse
import json
import math
import resource
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
p.add_argument("--npz", required=True, help="a data set written by `reproduce datasets --export`")
p.add_argument("--split", type=int, default=0, help="column of the split masks (with several, run r uses column r)")
p.add_argument("--backbone", choices=["gcn", "gcnconv"], default="gcn",
               help="gcn: main_exp's layer, Â (x Wᵀ + b); gcnconv: the hetero code's PyG GCNConv, Â x Wᵀ + b, b = 0 at init")
p.add_argument("--num_layers", type=int, default=2)
p.add_argument("--method", choices=["gcn", "geomix1", "geomix2", "geomix3"], required=True)
p.add_argument("--lr", type=float, default=0.01)
p.add_argument("--hidden_channels", type=int, default=64)
p.add_argument("--weight_decay", type=float, default=5e-4)
p.add_argument("--dropout", type=float, default=0.0)
p.add_argument("--hops", type=int, default=1)
p.add_argument("--alpha", type=float, default=0.0)
p.add_argument("--res_weight", type=float, default=0.5)
p.add_argument("--graph_weight", type=float, default=0.8)
p.add_argument("--attn_emb_dim", type=int, default=16)
p.add_argument("--aug_lamb", type=float, default=1.0)
p.add_argument("--use_bn", action="store_true")
p.add_argument("--label_grad", action="store_true")
p.add_argument("--epochs", type=int, default=300)
p.add_argument("--runs", type=int, default=5)
p.add_argument("--seed", type=int, default=123)
p.add_argument("--patience", type=int, default=0, help="stop a run after this many epochs without a better validation accuracy (hetero: 200); 0 never")
p.add_argument("--frozen_attention", action="store_true", help="GeoMix-III's W_q/W_k outside the optimizer and never reset (the hetero code)")
p.add_argument("--reset_adam", action="store_true", help="re-create Adam every run")
p.add_argument("--threads", type=int, default=1, help="torch CPU threads")
p.add_argument("--bench", type=int, default=0, metavar="E",
               help="instead of --runs: time E epochs (update and evaluation) at each of --bench_threads, print one JSON object")
p.add_argument("--bench_threads", default="1,2", help="comma-separated torch thread counts --bench times, epoch by epoch in turn")
a = p.parse_args()
torch.set_num_threads(a.threads)

data = np.load(a.npz)
n, d = (int(v) for v in data["x_shape"])
c = int(data["num_classes"])
indptr = data["x_indptr"]
rows = np.repeat(np.arange(n), np.diff(indptr))
X = torch.sparse_coo_tensor(torch.from_numpy(np.stack([rows, data["x_indices"].astype(np.int64)])),
                            torch.from_numpy(data["x_data"]), (n, d)).coalesce()
src, dst = (torch.from_numpy(e.astype(np.int64)) for e in data["edge_index"])
y = torch.from_numpy(data["y"].astype(np.int64))


def split(r):
    """The split of run r: column r of several (Squirrel, Chameleon), else --split."""
    col = r % data["train_mask"].shape[1] if data["train_mask"].shape[1] > 1 else a.split
    return (torch.from_numpy(np.flatnonzero(data[m + "_mask"][:, col])) for m in ("train", "val", "test"))


# As get_edge_weight in src/main_exp/models.py: exactly one self-loop per node, D^-1/2 (A+I) D^-1/2, the degree counted on the target.
loops = torch.arange(n)
row, col = torch.cat([src, loops]), torch.cat([dst, loops])
deg = torch.zeros(n).scatter_add_(0, col, torch.ones(row.numel()))
adj = torch.sparse_coo_tensor(torch.stack([row, col]), deg[row].pow(-0.5) * deg[col].pow(-0.5), (n, n)).coalesce()


def prop(h):
    return torch.sparse.mm(adj, h)


onehot = F.one_hot(y, c).float()
H, E, K = a.hidden_channels, a.attn_emb_dim, a.hops


class GCNLayer(nn.Module):
    """GCNLayer of src/main_exp/models.py: Â (x Wᵀ + b), W Glorot-uniform, b ~ U(±1/√in); with
    --backbone gcnconv, PyG's GCNConv as src/hetero/models.py uses it: Â x Wᵀ + b with b = 0 at init. forward takes z = x Wᵀ."""

    def __init__(self, fan_in, fan_out):
        super().__init__()
        self.fan_in = fan_in
        self.weight = nn.Parameter(torch.empty(fan_out, fan_in))
        self.bias = nn.Parameter(torch.empty(fan_out))

    def reset_parameters(self):
        nn.init.xavier_uniform_(self.weight)
        if a.backbone == "gcnconv":
            nn.init.zeros_(self.bias)
        else:
            bound = 1 / math.sqrt(self.fan_in)
            nn.init.uniform_(self.bias, -bound, bound)

    def forward(self, z):
        return prop(z) + self.bias if a.backbone == "gcnconv" else prop(z + self.bias)


class GeoMixGCN(nn.Module):
    def __init__(self):
        super().__init__()
        widths = [d] + [H] * (a.num_layers - 1) + [c]
        self.convs = nn.ModuleList([GCNLayer(i, o) for i, o in zip(widths, widths[1:])])
        self.bns = nn.ModuleList([nn.BatchNorm1d(H) for _ in range(a.num_layers - 1)]) if a.use_bn else None
        if a.method == "geomix3":
            self.wq = nn.ModuleList([nn.Linear(d, E) for _ in range(K)])
            self.wk = nn.ModuleList([nn.Linear(d, E) for _ in range(K)])
        self.initialised = False
        self.reset_parameters()

    def reset_parameters(self):
        frozen = set()
        if a.method == "geomix3" and a.frozen_attention and self.initialised:
            frozen = set(self.wq.modules()) | set(self.wk.modules())
        for m in self.modules():
            if m is not self and hasattr(m, "reset_parameters") and m not in frozen:
                m.reset_parameters()
        self.initialised = True

    def project(self, attention=True):
        """[N, H (+ 2 K E)]: X W₀ᵀ, then (GeoMix-III, unless attention is False) X W_qᵀ and X W_kᵀ of
        each hop, without biases."""
        ws = [self.convs[0].weight]
        if a.method == "geomix3" and attention:
            for i in range(K):
                ws += [self.wq[i].weight, self.wk[i].weight]
        return torch.sparse.mm(X, torch.cat(ws, 0).t())

    def forward(self, z):
        """Logits [N, C] from z = X W₀ᵀ [N, H] (of the original or the mixed features)."""
        h = self.convs[0](z)
        for i, conv in enumerate(self.convs[1:]):
            if self.bns is not None:
                h = self.bns[i](h)
            h = conv(F.dropout(F.relu(h), a.dropout, training=self.training) @ conv.weight.t())
        return h

    def augment(self, z, labels):
        """Mixes the projections z and the labels [N, C] alike, as augment in src/main_exp/models.py."""
        if a.method == "geomix1":
            for _ in range(K):
                z2, y2 = prop(z), prop(labels)
                if a.alpha > 0:
                    z2, y2 = (1 - a.alpha) * z2 + a.alpha * z, (1 - a.alpha) * y2 + a.alpha * labels
                z, labels = z2, y2
        elif a.method == "geomix2":
            z0, y0 = z, labels
            for _ in range(K):
                z, labels = (1 - a.alpha) * prop(z) + a.alpha * z0, (1 - a.alpha) * prop(labels) + a.alpha * y0
        else:
            ones = torch.ones(n, 1)
            for i in range(K):
                q = z[:, H + 2 * i * E:H + (2 * i + 1) * E] + self.wq[i].bias
                k = z[:, H + (2 * i + 1) * E:H + (2 * i + 2) * E] + self.wk[i].bias
                q, k = q / torch.norm(q, p=2), k / torch.norm(k, p=2)  # Frobenius norms, as SGFormer writes them
                den = q @ (k.t() @ ones) + n
                att_z, att_y = (q @ (k.t() @ z) + n * z) / den, (q @ (k.t() @ labels) + n * labels) / den
                if a.graph_weight > 0:
                    gz, gy = z, labels
                    for _ in range(K):  # Â^K inside every hop, as the code's gcn_conv
                        gz, gy = prop(gz), prop(gy)
                    att_z = a.graph_weight * gz + (1 - a.graph_weight) * att_z
                    att_y = a.graph_weight * gy + (1 - a.graph_weight) * att_y
                if a.res_weight > 0:
                    z = a.res_weight * z + (1 - a.res_weight) * att_z
                    labels = a.res_weight * labels + (1 - a.res_weight) * att_y
                else:
                    z, labels = att_z, att_y
        return z[:, :H], labels


torch.manual_seed(a.seed)
np.random.seed(a.seed)
model = GeoMixGCN()


def trained():
    """The optimizer's parameters: all, or all but W_q/W_k with --frozen_attention."""
    if not (a.frozen_attention and a.method == "geomix3"):
        return list(model.parameters())
    frozen = {id(q) for q in list(model.wq.parameters()) + list(model.wk.parameters())}
    return [q for q in model.parameters() if id(q) not in frozen]


opt = torch.optim.Adam(trained(), lr=a.lr, weight_decay=a.weight_decay)


def run_epoch(train, val, test, unlabelled):
    """One training epoch: the update, then the evaluation; returns the validation and test accuracy."""
    model.train()
    opt.zero_grad()
    z = model.project()
    if a.method == "gcn":
        loss = F.cross_entropy(model(z)[train], y[train])
    else:
        with torch.set_grad_enabled(a.label_grad):
            pseudo = F.softmax(model(z[:, :H]), dim=1)
        pseudo = pseudo.clone()
        pseudo[train] = onehot[train]
        z_mix, y_mix = model.augment(z, pseudo)
        log_p = F.log_softmax(model(z_mix), dim=1)
        loss = F.nll_loss(log_p[train], y[train]) + a.aug_lamb * (-(y_mix * log_p).sum(1))[unlabelled].mean()
    loss.backward()
    opt.step()
    model.eval()
    with torch.no_grad():
        pred = model(model.project(attention=False)).argmax(1)
    return (pred[val] == y[val]).float().mean().item(), (pred[test] == y[test]).float().mean().item()


def unlabelled_of(train):
    mask = torch.ones(n, dtype=torch.bool)
    mask[train] = False
    return mask


def bench():
    """--bench E: on run 0's split, one untimed warm-up epoch per thread count, then E rounds of one
    epoch per thread count (each round starting one thread count later); prints one JSON object."""
    threads = [int(t) for t in a.bench_threads.split(",")]
    model.reset_parameters()
    train, val, test = split(0)
    unlabelled = unlabelled_of(train)
    for t in threads:
        torch.set_num_threads(t)
        run_epoch(train, val, test, unlabelled)
    ms = {t: [] for t in threads}
    for r in range(a.bench):
        for k in range(len(threads)):
            t = threads[(r + k) % len(threads)]
            torch.set_num_threads(t)
            begin = time.perf_counter()
            run_epoch(train, val, test, unlabelled)
            ms[t].append(1000 * (time.perf_counter() - begin))
    per = {str(t): {"ms_per_epoch": float(np.median(v)), "ms_iqr": float(np.subtract(*np.percentile(v, [75, 25])))}
           for t, v in ms.items()}
    best = min(threads, key=lambda t: per[str(t)]["ms_per_epoch"])
    print(json.dumps({"bench": {"epochs": a.bench, "threads": per, "best_threads": best,
                                "ms_per_epoch": per[str(best)]["ms_per_epoch"],
                                "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                                "torch_version": torch.__version__}}), flush=True)


if a.bench:
    bench()
    raise SystemExit(0)
tests, start = [], time.time()
for run in range(a.runs):
    model.reset_parameters()
    if a.reset_adam and run > 0:
        opt = torch.optim.Adam(trained(), lr=a.lr, weight_decay=a.weight_decay)
    train, val, test = split(run)
    unlabelled = unlabelled_of(train)
    best_epoch, best_val, best_test = -1, -1.0, 0.0
    for epoch in range(a.epochs):
        val_acc, test_acc = run_epoch(train, val, test, unlabelled)
        if val_acc > best_val:
            best_epoch, best_val, best_test = epoch, val_acc, test_acc
        elif a.patience and epoch - best_epoch >= a.patience:
            break
    tests.append(100 * best_test)
    print(f"run {run}: best epoch {best_epoch}, val {100 * best_val:.2f}, test {100 * best_test:.2f}"
          f" ({time.time() - start:.0f} s)", flush=True)
t = np.array(tests)
print(json.dumps({"args": vars(a), "test_accs": t.round(2).tolist(), "test_acc_mean": round(float(t.mean()), 2),
                  "test_acc_std": round(float(t.std(ddof=1)), 2) if len(t) > 1 else 0.0}), flush=True)
