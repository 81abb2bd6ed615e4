package datasets

import (
	"fmt"
	"slices"
)

// twitchRegions are the MUSAE Twitch regions, in the order of the data set names twitch-de ...
// twitch-tw. PyG and the GeoMix code call ENGB "EN" and PTBR "PT".
var twitchRegions = []string{"DE", "ENGB", "ES", "FR", "PTBR", "RU", "TW"}

// TwitchRegions returns the seven MUSAE Twitch regions, DE, ENGB, ES, FR, PTBR, RU and TW: region R
// is the data set "twitch-" + lower-case R.
func TwitchRegions() []string { return slices.Clone(twitchRegions) }

// twitchNumFeatures is the number of games: feature ids in the raw JSON are in [0, 3170).
const twitchNumFeatures = 3170

// twitchURLPrefix is where the raw MUSAE files are published (CUAI/Non-Homophily-Large-Scale, the
// copy LINKX and EERM use), pinned to a commit.
const twitchURLPrefix = "https://github.com/CUAI/Non-Homophily-Large-Scale/raw/82f8f05c5c3ec16bd5b505cc7ad62ab5e09051e6/data/twitch/"

// twitchChecksums holds the size and sha256 of every raw file, keyed by its path under twitch/
// (see docs/data.md).
var twitchChecksums = map[string]struct {
	size   int64
	sha256 string
}{
	"DE/musae_DE_edges.csv":         {1499865, "54feaf3e3e70a485fe07f8611e4d2677841b97f77b8358204bcf4a48cc884d86"},
	"DE/musae_DE_features.json":     {1167905, "7b39c42570f05cd46017c765df8d8a1bc03f19787c3eb0f9684f50a52476ae3a"},
	"DE/musae_DE_target.csv":        {338721, "2188f58a093bb9db363d3eaf7c3a52c2adc8ff6b23cbcb4f53875f87061c0321"},
	"ENGB/musae_ENGB_edges.csv":     {342162, "5ea4d7f7267454e9523577eb2a9b4dcb7a22dd660a548240f01b815d08e0e3cc"},
	"ENGB/musae_ENGB_features.json": {893932, "efcd846f7b687d299c9c674f3cda43cd70de8307d2558895bddd3645eb38d500"},
	"ENGB/musae_ENGB_target.csv":    {253352, "e9d51399878216d2dd662b0a152b602cccde7b5cbb8452cb91d9379f64114443"},
	"ES/musae_ES_edges.csv":         {563757, "17801d2cc45fc4909a431ce7a190c0565d4af87b0548ca7705cf2bef7da4c884"},
	"ES/musae_ES_features.json":     {545028, "598a610ef7e0469c5ad800c11f7ad89797e6a27d7d66b670782a5516cc344725"},
	"ES/musae_ES_target.csv":        {165932, "f843427bae58289100e78c6c211fa4a1ae0d5fbf2c665841df9e390b00dcffb5"},
	"FR/musae_FR_edges.csv":         {1090900, "9924263f7e8edaa7278dcbc37bd90c8712cb0ea1726d85e054a5588b7959f887"},
	"FR/musae_FR_features.json":     {781778, "b6ecbefd5606f46d30a9b4be7b574e5427d9e0314f1bd6a1861942ae718d3573"},
	"FR/musae_FR_target.csv":        {234662, "dd0a9e7ba565cbb95ae66003892709742bd08c26387656e3e235fc25205663b4"},
	"PTBR/musae_PTBR_edges.csv":     {275216, "b72d93a3c8a82883771a2f3822fce229885fa0d40367fb105c0535fb36c773b9"},
	"PTBR/musae_PTBR_features.json": {229854, "12ba6c60ce009b1bec8fd5ad110539775d14a2b96011df19ba9f72ad1393a406"},
	"PTBR/musae_PTBR_target.csv":    {67878, "ecba7d1287e72ae7c3f42c922be475283288c0c67346245c72109690460444bd"},
	"RU/musae_RU_edges.csv":         {351398, "fd307587a550289f746056ea12a7336171ab2053c9e08c42dba77499126ca5b2"},
	"RU/musae_RU_features.json":     {545944, "c5357468471545a6169de463ef706f321446dc667d9d62d49e68c0b3feef9675"},
	"RU/musae_RU_target.csv":        {158570, "db7617528355be994352e491e7b25d060fed466d0d81c09cadd90fa10f15c071"},
	"TW/musae_TW_edges.csv":         {581894, "47c986023f1f434f76026ddfb3ab544be24849011400c99402083d06d3dfa017"},
	"TW/musae_TW_features.json":     {305776, "9508cc55f4b891018f278df4cec40d622aba2b04c1bca9451fd9e8ce11321c7b"},
	"TW/musae_TW_target.csv":        {99672, "65b75f23be40140d2e326813c3f81419f1a94aa1091acfc0279f0403be8165f7"},
}

// twitchFile is the fileSpec of one raw file of a region; kind is "edges.csv", "features.json" or
// "target.csv".
func twitchFile(region, kind string) fileSpec {
	rel := fmt.Sprintf("%s/musae_%s_%s", region, region, kind)
	sum := twitchChecksums[rel]
	return fileSpec{Path: "twitch/" + rel, URL: twitchURLPrefix + rel, SHA256: sum.sha256, Size: sum.size}
}
