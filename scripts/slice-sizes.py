#!/usr/bin/env python3
"""Slice sizes of the generator (docs/GENERATOR.md): for each pair of a set,
its positions, its number of slices (levels of advancement), its largest slice
and the largest slice together with the one above it (what is in memory).

Usage: scripts/slice-sizes.py VARIANT PIECES [TOP]"""
import itertools, math, sys
from functools import lru_cache
def squares(variant):
    if variant=='russian': R,per=8,4
    else: R,per=10,5
    return R,per
def level_counts(variant,a,b):
    R,per=squares(variant)
    # dp over rows: dict (wa,bb,adv)->count
    dp={(0,0,0):1}
    for row in range(R):
        new={}
        for (wa,bb,adv),cnt in dp.items():
            # choose on this row: x white men, y black men, among per squares
            for x in range(0,per+1):
                if x and row>R-2: break
                for y in range(0,per+1-x):
                    if y and row<1: break
                    if wa+x>a or bb+y>b: continue
                    ways=math.comb(per,x)*math.comb(per-x,y)
                    key=(wa+x,bb+y,adv+x*row+y*(R-1-row))
                    new[key]=new.get(key,0)+cnt*ways
        dp=new
    out={}
    for (wa,bb,adv),c in dp.items():
        if wa==a and bb==b: out[adv]=out.get(adv,0)+c
    return out
def sigs(variant,n):
    per = 12 if variant=='russian' else 20
    for tot in range(2,n+1):
        for a in range(tot+1):
            for c in range(tot+1-a):
                for b in range(tot+1-a-c):
                    d=tot-a-b-c
                    if a+c==0 or b+d==0: continue
                    yield (a,b,c,d)
variant=sys.argv[1]; n=int(sys.argv[2]); top=int(sys.argv[3]) if len(sys.argv) > 3 else 8
R,per=squares(variant); S=R*per
best=[]
seen=set()
for (a,b,c,d) in sigs(variant,n):
    key=max((a,b,c,d),(b,a,d,c))
    if key in seen: continue
    seen.add(key)
    sym = (a,b,c,d)==(b,a,d,c)
    free=S-a-b
    K=math.comb(free,d)*math.comb(free-d,c)
    lc=level_counts(variant,a,b)
    total=sum(lc.values())*K*(1 if sym else 2)
    mx=max(lc.values())*K*(1 if sym else 2)
    pairmx=max(lc.get(l,0)+lc.get(l+1,0) for l in lc)*K*(1 if sym else 2)
    best.append((mx,total,pairmx,len(lc),key))
best.sort(reverse=True)
for mx,total,pm,nl,key in best[:top]:
    a,b,c,d=key
    name='K'*c+'M'*a+'v'+'K'*d+'M'*b
    print(f"{name:12s} pair {total:.3e} levels {nl:3d} largest level {mx:.3e} two adjacent {pm:.3e}")
