"""Any installed Gameweave title as an OpenSpiel game and a PettingZoo environment."""
